#!/bin/bash
# The README's layout matches the tree: every folder of the source tree (two
# levels; tests/ and tools/ one) is named in the "## Layout" section as
# `name/`, and every docs/ page the README links to exists.
# Usage: readme_layout.sh SOURCE_DIR
set -u
src=$1
readme=$src/README.md
layout=$(sed -n '/^## Layout/,/^## /p' "$readme")
status=0
cd "$src" || exit 2
for dir in $(git ls-files | awk -F/ 'NF > 1 { print $1 "/" } NF > 2 && ($1 == "sim" || $1 == "mpi_model" || $1 == "traces" || $1 == "tools" || $1 == "tests") { print $2 "/" }' | sort -u); do
  [[ $dir == .* ]] && continue  # .ci/, .github/: not part of the product
  if ! grep -qF "\`$dir\`" <<<"$layout"; then
    echo "README layout does not name $dir"
    status=1
  fi
done
for page in $(grep -o '(docs/[^)]*)' "$readme" | tr -d '()' | sort -u); do
  if [ ! -f "$page" ]; then
    echo "README links to $page, which does not exist"
    status=1
  fi
done
[ $status = 0 ] && echo "README layout names every folder; its docs links exist"
exit $status
