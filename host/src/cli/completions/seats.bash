
# seat names where a command takes a seat (team completions seats reads the team file here)
_team_seats() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="" cmd="${COMP_WORDS[1]}"
    [ "$COMP_CWORD" -gt 0 ] && prev="${COMP_WORDS[COMP_CWORD-1]}"
    if [ "$prev" = --record ] || { [ "$prev" = --seat ] && [ "$cmd" = feed ]; } ||
        { [ "$COMP_CWORD" -eq 2 ] && [[ "$cur" != -* ]] && [[ " send register route rename mark " == *" $cmd "* ]]; }; then
        COMPREPLY=($(compgen -W "$(command team completions seats 2>/dev/null)" -- "$cur"))
        return 0
    fi
    _team "$@"
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _team_seats -o nosort -o bashdefault -o default team
else
    complete -F _team_seats -o bashdefault -o default team
fi
