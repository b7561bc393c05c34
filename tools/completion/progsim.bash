# Bash completion for progsim, progsim-mpiexec and mpiexec.progsim.
#
# Nothing is copied from the programs: subcommands, options, the values an
# option's help spells as "a|b|c", the progress policies and the --cfg keys
# (with their "[a|b]" values) are read from the --help and `--cfg help` of
# the very program being completed, so the completion follows the program.

# _progsim_help PROGRAM [SUBCOMMAND]: that command's --help text.
_progsim_help() {
  "$@" --help 2>/dev/null
}

# _progsim_options HELP: the option names the help text mentions from its
# first "...options:" heading on (not the examples of other tools' flags
# in the description).
_progsim_options() {
  sed -n '/ptions:$/,$p' <<<"$1" | grep -oE -- '(^|[ ,(])--?[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^[ ,(]//' |
    grep -vE -- '^-np?N$' | sort -u
}

# _progsim_choices HELP OPTION: the values of an option the help shows as
# "OPTION a|b|c" or "OPTION=a|b" (--map-by, --privatize, --timeline-format).
_progsim_choices() {
  grep -oE -- "(^|[ ,])$2[ =][a-z]+(\|[a-z]+)+" <<<"$1" | head -1 | sed -E "s/^[ ,]?$2[ =]//" | tr '|' ' '
}

# _progsim_policies RUN_HELP: the names listed under --progress POLICY.
_progsim_policies() {
  awk '/--progress POLICY/ { on = 1; next } on && /^                    +[a-z]+: / { sub(/^ +/, ""); sub(/:.*/, ""); print; next } on { exit }' <<<"$1"
}

# _progsim_cfg PROGRAM... CURRENT: "key=" for every --cfg key, or
# "key=value" for the values a key's help lists as [a|b].
_progsim_cfg() {
  local current=${*: -1}
  local listing
  listing=$("${@:1:$#-1}" run --cfg help 2>/dev/null)
  if [[ "$current" == *=* ]]; then
    local key=${current%%=*}
    awk -v key="$key" '$1 == key { on = 1; next } on { if (match($0, /\[[a-z0-9|-]+\]$/)) { s = substr($0, RSTART + 1, RLENGTH - 2); n = split(s, v, "|"); for (i = 1; i <= n; i++) print key "=" v[i] } exit }' <<<"$listing"
  else
    awk '/^  [a-z0-9][a-z0-9-]* \(default/ { print $1 "=" }' <<<"$listing"
  fi
}

_progsim() {
  # The words as typed (COMP_WORDS splits at '=' and ':').
  local line=${COMP_LINE:0:$COMP_POINT}
  local -a words
  read -r -a words <<<"$line"
  [[ "$line" == *[[:space:]] ]] && words+=("")
  local cur=${words[-1]} prev=""
  [ ${#words[@]} -ge 2 ] && prev=${words[-2]}
  local program=${words[0]}
  program=${program/#\~/$HOME}

  # The command whose options apply: progsim SUBCOMMAND, or the mpiexec form.
  local -a command=("$program")
  local base=${program##*/} subcommand=""
  if [[ "$base" != *mpiexec* && "$base" != *mpirun* ]]; then
    if [ ${#words[@]} -eq 2 ] && [[ "$cur" != -* ]]; then
      local subcommands
      subcommands=$(_progsim_help "$program" | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1; next } on { exit }')
      mapfile -t COMPREPLY < <(compgen -W "$subcommands" -- "$cur")
      return
    fi
    subcommand=${words[1]}
    case "$subcommand" in
      run | compare | check | replay | examples | calibrate | sweep) command+=("$subcommand") ;;
      *) subcommand=run; command+=(run) ;;  # progsim -n N ...: the options of run
    esac
  fi

  local help candidates=""
  help=$(_progsim_help "${command[@]}")
  [[ "$subcommand" = compare || "$subcommand" = check ]] && help+=$'\n'$(_progsim_help "$program" run)

  local option=$prev value_prefix=""
  if [[ "$cur" == --*=* ]]; then  # --opt=value
    option=${cur%%=*}
    value_prefix=$option=
  fi
  case "$option" in
    --progress) candidates=$(_progsim_policies "$(_progsim_help "$program" run)") ;;
    --policies) candidates=$(_progsim_policies "$(_progsim_help "$program" run)") ;;
    --cfg)
      if [ -n "$value_prefix" ]; then
        mapfile -t COMPREPLY < <(compgen -P "$value_prefix" -W "$(_progsim_cfg "$program" "${cur#--cfg=}")" -- "${cur#--cfg=}")
      else
        mapfile -t COMPREPLY < <(compgen -W "$(_progsim_cfg "$program" "$cur") help" -- "$cur")
      fi
      ;;
    *)
      if [[ "$option" == -* ]]; then
        candidates=$(_progsim_choices "$help" "$option")
      fi
      ;;
  esac
  if [ "$option" != --cfg ]; then
    if [ -n "$candidates" ]; then
      mapfile -t COMPREPLY < <(compgen -P "$value_prefix" -W "$candidates" -- "${cur#"$value_prefix"}")
    elif [[ "$cur" == -* ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$(_progsim_options "$help")" -- "$cur")
    else
      COMPREPLY=()  # a program or a file: bash's default completion (-o default)
      return
    fi
  fi
  # Bash replaces only the part of the word after its last '=' or ':'.
  local broken=${cur%"${cur##*[=:]}"}
  if [ -n "$broken" ]; then
    local i
    for i in "${!COMPREPLY[@]}"; do
      COMPREPLY[i]=${COMPREPLY[i]#"$broken"}
    done
  fi
  # "key=" waits for its value: no space after it.
  if [[ ${#COMPREPLY[@]} -eq 1 && "${COMPREPLY[0]}" == *= ]]; then
    compopt -o nospace 2>/dev/null || true
  fi
  return 0
}

complete -o default -F _progsim progsim progsim-mpiexec mpiexec.progsim
