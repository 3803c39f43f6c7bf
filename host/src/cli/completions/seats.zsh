
# seat names where a command takes a seat (team completions seats reads the team file here)
_team_seats() {
    local -a seats
    seats=(${(f)"$(command team completions seats 2>/dev/null)"})
    compadd -a seats
}
