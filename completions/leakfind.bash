# bash completion for leakfind(1).
# The commands and each command's options are read from the binary itself
# (`leakfind --help`, `leakfind COMMAND -h`) the first time they are needed,
# so the completion never falls behind the binary it completes for.

declare -gA _leakfind_cache

# Sets _leakfind_commands to the names under "Commands:" in `leakfind
# --help` ("  name  summary"). Called outside $(...) so the cache is kept.
_leakfind_load_commands()
{
    local bin=$1 key="$1 --help"
    if [[ -z ${_leakfind_cache[$key]+set} ]]; then
        _leakfind_cache[$key]=$("$bin" --help 2>/dev/null |
            awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
    fi
    _leakfind_commands=${_leakfind_cache[$key]}
}

# Sets _leakfind_options to one line per option of `leakfind CMD -h`:
# "name<TAB>value" where value is empty for a flag, else what the help names
# it (N, SIZE, KEY, table|tsv|json). An option line starts with two spaces and
# a dash; a value follows the name after one space.
_leakfind_load_options()
{
    local bin=$1 cmd=$2 key="$1 $2 -h"
    if [[ -z ${_leakfind_cache[$key]+set} ]]; then
        _leakfind_cache[$key]=$("$bin" "$cmd" -h 2>/dev/null | awk '
            /^  -/ {
                # "-o, --output OUT  the file" -> "-o" "--output", value "OUT"
                split(substr($0, 3), part, /  +/)
                m = split(part[1], word, / /)
                value = ""
                names = 0
                for (i = 1; i <= m; i++) {
                    w = word[i]; sub(/,$/, "", w)
                    if (w !~ /^-/) { value = w; break }
                    name[++names] = w
                }
                for (i = 1; i <= names; i++) print name[i] "\t" value
            }')
    fi
    _leakfind_options=${_leakfind_cache[$key]}
}

# The values an option takes when its help lists them: "table|tsv|json", or
# for --sort "retained (default), shallow, count or class (the name)".
_leakfind_option_values()
{
    local bin=$1 cmd=$2 opt=$3 value=$4
    if [[ $value == *'|'* ]]; then
        printf '%s\n' ${value//|/ }
        return
    fi
    case $opt in
    --sort)
        "$bin" "$cmd" -h 2>/dev/null | awk -v opt="$opt" '
            index($0, "  " opt " ") == 1 {
                text = $0
                sub(/^ *[^ ]+ [^ ]+ +/, "", text)
                gsub(/\([^)]*\)/, "", text)
                gsub(/,| or /, " ", text)
                n = split(text, w, / +/)
                for (i = 1; i <= n; i++) if (w[i] != "") print w[i]
            }'
        ;;
    --signal) printf '%s\n' USR1 USR2 ;;
    esac
}

_leakfind()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local bin=${COMP_WORDS[0]}
    [[ $bin == */* ]] || bin=$(type -P "$bin" 2>/dev/null) || return 0
    bin=${bin/#\~/$HOME}
    COMPREPLY=()

    if ((COMP_CWORD == 1)); then
        local _leakfind_commands
        _leakfind_load_commands "$bin"
        COMPREPLY=($(compgen -W "$_leakfind_commands --help --version" -- "$cur"))
        return 0
    fi
    local cmd=${COMP_WORDS[1]} i
    # record: past "--" come the program and its arguments
    for ((i = 2; i < COMP_CWORD; i++)); do
        if [[ ${COMP_WORDS[i]} == -- ]]; then
            if ((i + 1 == COMP_CWORD)); then
                COMPREPLY=($(compgen -c -- "$cur"))
            else
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
            fi
            return 0
        fi
    done

    local _leakfind_options table name value
    _leakfind_load_options "$bin" "$cmd"
    table=$_leakfind_options
    if [[ $prev == -* ]]; then
        while IFS=$'\t' read -r name value; do
            [[ $name == "$prev" && -n $value ]] || continue
            case $value in
            OUT | PREFIX | FILE)
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
                ;;
            *)
                COMPREPLY=($(compgen -W "$(_leakfind_option_values "$bin" "$cmd" "$prev" "$value")" -- "$cur"))
                ;;
            esac
            return 0
        done <<<"$table"
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(cut -f1 <<<"$table")" -- "$cur"))
        return 0
    fi
    # a snapshot, an object id, a program: file names
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
    return 0
}

complete -F _leakfind leakfind
