
# seat names where a command takes a seat (team completions seats reads the team file here)
complete -c team -n "__fish_team_using_subcommand send register route rename mark; and test (count (commandline -opc)) -eq 2" -f -a "(command team completions seats 2>/dev/null)"
complete -c team -n "__fish_team_using_subcommand send" -l record -f -r -a "(command team completions seats 2>/dev/null)"
complete -c team -n "__fish_team_using_subcommand feed" -l seat -f -r -a "(command team completions seats 2>/dev/null)"
