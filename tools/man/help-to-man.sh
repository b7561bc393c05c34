#!/usr/bin/env bash
# help-to-man.sh OUTPUT NAME SUMMARY VERSION PROGRAM [SUBCOMMAND...]
#
# Writes the man page OUTPUT (section 1) of NAME from the program's own
# --help text, so that the page and --help cannot disagree: `PROGRAM
# --help` first, then `PROGRAM SUBCOMMAND --help` for each SUBCOMMAND as a
# section of its own. The text is laid out for a terminal already, so
# indented lines (option tables) stay preformatted and the rest is filled:
#   "Usage: ..." and the indented lines after it  -> SYNOPSIS
#   text before the first heading                -> DESCRIPTION
#   "Heading:" alone on a line                   -> .SH (.SS in a subcommand)
# help2man is not used: its output depends on its version, this is the same
# everywhere.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 OUTPUT NAME SUMMARY VERSION PROGRAM [SUBCOMMAND...]" >&2; exit 2; }
output=$1 name=$2 summary=$3 version=$4 program=$5
shift 5

# One part per help text, each introduced by a marker line.
{
  echo "@@part $name"
  "$program" --help
  for sub in "$@"; do
    echo "@@part $name $sub"
    "$program" "$sub" --help
  done
} | awk -v name="$name" -v summary="$summary" -v version="$version" '
function esc(s) {
  gsub(/\\/, "\\e", s)
  gsub(/-/, "\\-", s)
  if (s ~ /^[.\047]/) s = "\\&" s
  return s
}
function nf_on() { if (!nf) { print ".nf"; nf = 1 } }
function nf_off() { if (nf) { print ".fi"; nf = 0 } }
BEGIN {
  title = toupper(name)
  printf ".TH \"%s\" 1 \"\" \"progsim %s\" \"User Commands\"\n", title, version
  print ".SH NAME"
  print esc(name) " \\- " esc(summary)
  part = 0
}
/^@@part / {
  nf_off()
  part++
  sub(/^@@part /, "")
  if (part > 1) printf ".SH \"%s\"\n", esc(toupper($0))
  state = "start"; blank = 0
  next
}
/^Usage: / {
  nf_off()
  if (part == 1) print ".SH SYNOPSIS"
  sub(/^Usage: +/, "")
  nf_on(); print esc($0)
  state = "usage"; blank = 0
  next
}
/^[[:space:]]*$/ {
  if (state == "usage") state = "text"
  blank = 1
  next
}
/^[A-Z][^:]*:$/ && length($0) < 60 {
  nf_off()
  heading = substr($0, 1, length($0) - 1)
  aside = ""  # "Environment (the command line wins)": the parenthesis is text
  if (match(heading, / \(.*\)$/)) { aside = substr(heading, RSTART + 2, RLENGTH - 3); heading = substr(heading, 1, RSTART - 1) }
  printf "%s \"%s\"\n", (part == 1 ? ".SH" : ".SS"), esc(part == 1 ? toupper(heading) : heading)
  if (aside != "") print esc(toupper(substr(aside, 1, 1)) substr(aside, 2)) "."
  state = "section"; blank = 0
  next
}
{
  if (state == "start") next  # the title line before Usage: (NAME says it)
  if (state == "usage" && $0 ~ /^ /) { sub(/^       /, ""); print esc($0); next }
  if (state == "usage" || state == "text") {
    nf_off()
    if (part == 1 && !described) { print ".SH DESCRIPTION"; described = 1 }
    else if (blank) print ".PP"
    state = "description"
  } else if (blank && !nf) print ".PP"
  blank = 0
  if ($0 ~ /^ /) { nf_on(); sub(/^  /, ""); print esc($0) }
  else { nf_off(); print esc($0) }
}
END { nf_off() }
' >"$output.tmp"
mv "$output.tmp" "$output"
