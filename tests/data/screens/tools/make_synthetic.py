#!/usr/bin/env python3
"""Writes the synthetic screens for cursor, agy and Grok Build (no real screens can be captured here).

Each screen is assembled from phrases documented publicly or keyed on by herdr 0.7.1's manifests
(facts, not code); every phrase's source is recorded in the meta's `sources`. Anything on a screen
that is not such a phrase (the command named in a dialog, the prompt text, box widths) is
illustrative filler and is listed under `filler`. No styling is known, so `.ansi` equals `.txt`.
Run from the repository root: python3 tests/data/screens/tools/make_synthetic.py
"""
import json, os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

HERDR = "docs/herdr-0.7.1.md §6 and the issue text (herdr 0.7.1 screen manifests)"
CURSOR_SRC = {
    "ctrl+c to stop": HERDR + ": cursor working = `ctrl+c to stop` in the bottom lines (a narrow pane can wrap it)",
    "Run this command?": HERDR + ": cursor approval `Run this command?` + `Run (once) (y)` / `Skip (esc or n)`",
    "Run (once) (y)": HERDR,
    "Skip (esc or n)": HERDR,
    "Not in allowlist:": "public cursor-agent approval captures quoted by third-party detectors (`Not in allowlist: <command>`)",
    "Add Shell(<cmd>) to allowlist? (tab)": "public cursor-agent approval captures quoted by third-party detectors",
    "Waiting for approval": "the issue text (`waiting for approval`)",
    "(y) (enter)": "the issue text (`(y) (enter)`)",
    "Write to this file?": "public detectors of cursor-agent file approvals (`write to this file?`, `proceed (y)`, `reject & propose changes`)",
    "Trust this workspace": "public cursor-agent workspace-trust prompt quoted by a third-party parser (`Trust this workspace`)",
    "Press any key to log in": "public cursor-agent login wall quoted by a third-party manifest (`press any key to log in`)",
    "→ Plan, search, build anything": "cursor-agent's input box placeholder quoted by a third-party detector's test (box `│ → Plan, search, build anything`)",
    "⬢ Reading…": "public detectors of cursor-agent's spinner activity rows (`⬡ Grepping..`, `⬢ Reading…`)",
}
AGY_SRC = {
    "? for shortcuts": "a public capture note of agy 1.1.24 (idle footer `? for shortcuts`)",
    "⣻  Generating...": "a public capture note of agy 1.1.24 (braille spinner row `⣻  Generating...`); the issue: agy working = a braille spinner line ending in an `…ing` word",
    "esc to cancel": "the issue text and the agy 1.1.24 capture note (footer `esc to cancel`)",
    "Requesting permission for:": HERDR + ": agy `requesting permission for:` + `do you want to proceed?` (herdr fails when the line soft-wraps)",
    "Do you want to proceed?": HERDR,
    "numbered options": "the agy 1.1.24 capture note (`Requesting permission for:` + `Do you want to proceed?` + numbered options)",
}
GROK_SRC = {
    "Ctrl+c:cancel │ Ctrl+Enter:interject": HERDR + " / docs/grok-and-compose.md: Grok Build working = `ctrl+c:cancel` with `ctrl+enter:interject` (+ `waiting`); public Grok Build UI notes show the running hints `Ctrl+c:cancel │ Ctrl+Enter:interject`",
    "Shift+Tab:mode │ Ctrl+.:shortcuts": "public Grok Build UI notes (idle hints `Shift+Tab:mode │ Ctrl+.:shortcuts`)",
    "⠋ Waiting… 1.8s": "public Grok Build detector notes (`⠋ Waiting… 1.8s`); herdr's braille line `^\\s*[⠀-⣿]\\s+(Run|Read|Search|List)\\b`",
    "⠹ Read src/main.rs": "herdr 0.7.1 grok manifest: a braille spinner line starting `Run|Read|Search|List`",
    "⠋ Thinking 3.2s [stop]": "public Grok Build detector tests (`⠋ Thinking 3.2s [stop]`)",
    "Yes, proceed / No, reject": HERDR + ": permission = `yes, proceed` / `no, reject` with `use ← → to choose permission whitelist scope`",
    "Use ← → to choose permission whitelist scope": HERDR,
    "╭─╮ │ ❯ │ ╰─╯ box": "public Grok Build UI notes (prompt box `╭───╮`, `│ ❯`, `╰───╯`)",
}

def box(inner, width, tl="╭", tr="╮", bl="╰", br="╯", indent=""):
    rows = [indent + tl + "─" * (width - 2) + tr]
    for t in inner:
        rows.append(indent + "│ " + t.ljust(width - 4) + " │")
    rows.append(indent + bl + "─" * (width - 2) + br)
    return rows

def write(cli, state, rows, cols, nrows, how, expect, sources, filler):
    d = os.path.join(ROOT, f"{cli}-synthetic")
    os.makedirs(d, exist_ok=True)
    body = rows + [""] * max(0, nrows - len(rows))
    text = "\n".join(r.rstrip() for r in body) + "\n"
    for ext in ("txt", "ansi"):
        with open(os.path.join(d, f"{state}.{ext}"), "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(d, f"{state}.title"), "w", encoding="utf-8") as f:
        f.write("\n")
    meta = {
        "cols": cols, "rows": nrows, "cli": cli, "version": "synthetic", "synthetic": True,
        "how": how,
        "sources": [{"phrase": p, "source": s} for p, s in sources.items()],
        "filler": filler,
        "expect": expect,
    }
    with open(os.path.join(d, f"{state}.meta.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
        f.write("\n")

OMIT = object()

def E(state, dialog=None, composer=None, hint=None, err=None):
    """`composer=None` expects no readable composer (null); `composer=OMIT` leaves it unasserted."""
    e = {"state": state, "dialog": dialog, "composer": composer, "working_hint": hint, "last_turn_error": err}
    if composer is OMIT:
        del e["composer"]
    return e

def pick(src, *keys):
    return {k: src[k] for k in keys}

# ---------------------------------------------------------------- cursor
W = 100
hist = ["", "  > please summarize the README in two lines", "", "  The README describes a CLI that reaches agents in panes.", ""]
cursor_box_empty = box(["→ Plan, search, build anything"], W, "┌", "┐", "└", "┘")
cursor_box_typed = box(["→ please check the failing test"], W, "┌", "┐", "└", "┘")
write("cursor", "idle-empty", hist + cursor_box_empty, W, 24,
      "synthetic: an idle cursor-agent with its input box showing the placeholder",
      E("idle", composer=""), pick(CURSOR_SRC, "→ Plan, search, build anything"),
      ["the transcript rows above the box", "the box width"])
write("cursor", "idle-typed", hist + cursor_box_typed, W, 24,
      "synthetic: text typed into the input box, not submitted",
      E("idle", composer="please check the failing test"), pick(CURSOR_SRC, "→ Plan, search, build anything"),
      ["the typed text", "the transcript rows"])
write("cursor", "working", hist + ["  ⬢ Reading…", ""] + cursor_box_empty + ["  ctrl+c to stop"], W, 24,
      "synthetic: a turn running; `ctrl+c to stop` in the bottom lines",
      E("working", composer="", hint="ctrl+c to stop"), pick(CURSOR_SRC, "ctrl+c to stop", "⬢ Reading…"),
      ["the position of the hint under the box"])
write("cursor", "working-narrow30", ["  > fix it", "", "  ⬢ Reading…", ""] + box(["→ Plan, search,"], 30, "┌", "┐", "└", "┘") + ["  ctrl+c to", "  stop"], 30, 16,
      "synthetic: a 30-column pane wraps `ctrl+c to stop` over two rows",
      E("working", composer=OMIT, hint="ctrl+c to stop"), pick(CURSOR_SRC, "ctrl+c to stop"),
      ["the box, whose placeholder is cut at this width (the composer is not asserted here)"])
write("cursor", "permission-run-command", hist + box([
    "Run this command?",
    "Not in allowlist: cargo test",
    " → Run (once) (y)",
    "   Add Shell(cargo) to allowlist? (tab)",
    "   Skip (esc or n)",
], W, "┌", "┐", "└", "┘"), W, 24,
      "synthetic: the command approval; `→` marks the selected option (the composer's glyph too)",
      E("dialog", "permission"), pick(CURSOR_SRC, "Run this command?", "Run (once) (y)", "Skip (esc or n)", "Not in allowlist:", "Add Shell(<cmd>) to allowlist? (tab)"),
      ["the command `cargo test`"])
write("cursor", "permission-write-file", hist + box([
    "Write to this file?",
    "src/main.rs",
    " → Proceed (y) (enter)",
    "   Reject & propose changes (esc or n or p)",
], W, "┌", "┐", "└", "┘") + ["  Waiting for approval..."], W, 24,
      "synthetic: a file-write approval",
      E("dialog", "permission"), pick(CURSOR_SRC, "Write to this file?", "(y) (enter)", "Waiting for approval"),
      ["the file name", "the option wording around the documented key hints"])
write("cursor", "trust-workspace", box([
    "Do you trust the contents of this directory?",
    "/tmp/drop/proj",
    " → Trust this workspace",
    "   Quit (esc)",
], W, "┌", "┐", "└", "┘"), W, 24,
      "synthetic: the workspace-trust prompt",
      E("dialog", "trust"), pick(CURSOR_SRC, "Trust this workspace"),
      ["the question line", "the second option", "the directory"])
write("cursor", "login-wall", ["", "  Cursor Agent", "", "  Press any key to log in..."], W, 24,
      "synthetic: the login wall of an unauthenticated cursor-agent",
      E("dialog", "vendor_notice"), pick(CURSOR_SRC, "Press any key to log in"),
      ["the banner line"])

# ---------------------------------------------------------------- agy
hist = ["", "> please summarize the README in two lines", "", "✦ The README describes a CLI that reaches agents in panes.", ""]
write("agy", "idle", hist + ["", "? for shortcuts"], W, 24,
      "synthetic: idle agy; the input box's form is not documented, so the composer is not asserted readable",
      E("idle", composer=None), pick(AGY_SRC, "? for shortcuts"),
      ["the transcript rows"])
write("agy", "working", hist + ["⣻  Generating...", "", "esc to cancel"], W, 24,
      "synthetic: a turn running: the braille spinner row and the `esc to cancel` footer",
      E("working", composer=None, hint="esc to cancel"), pick(AGY_SRC, "⣻  Generating...", "esc to cancel"),
      ["the blank row between spinner and footer"])
write("agy", "working-spinner-only", hist + ["⠹  Thinking…"], W, 24,
      "synthetic: only the spinner row (a braille glyph and an …ing word) shows the turn",
      E("working", composer=None, hint="spinner row"), pick(AGY_SRC, "⣻  Generating..."),
      ["the word `Thinking`"])
write("agy", "permission", hist + [
    "Requesting permission for:",
    "  rm -rf build",
    "",
    "Do you want to proceed?",
    "  1. Yes",
    "  2. Yes, and don't ask again",
    "  3. No",
], W, 24,
      "synthetic: the permission prompt",
      E("dialog", "permission"), pick(AGY_SRC, "Requesting permission for:", "Do you want to proceed?", "numbered options"),
      ["the command", "the option wording"])
write("agy", "permission-wrapped-narrow27", ["> rm it", "", "Requesting permission", "for:", "  rm -rf build", "", "Do you want to proceed?", "  1. Yes", "  2. No"], 27, 16,
      "synthetic: a 27-column pane soft-wraps `Requesting permission for:` (herdr's rule misses it there)",
      E("dialog", "permission"), pick(AGY_SRC, "Requesting permission for:", "Do you want to proceed?"),
      ["the command", "the options"])

# ---------------------------------------------------------------- grok (Grok Build)
hist = ["", "  ❯ please summarize the README in two lines", "", "  The README describes a CLI that reaches agents in panes.", ""]
gbox_empty = box(["❯"], W, indent="")
gbox_typed = box(["❯ please check the failing test"], W)
idle_hints = ["  Shift+Tab:mode │ Ctrl+.:shortcuts"]
run_hints = ["  Ctrl+c:cancel │ Ctrl+Enter:interject"]
write("grok", "idle-empty", hist + gbox_empty + ["  Grok Build"] + idle_hints, W, 24,
      "synthetic: idle Grok Build with an empty prompt box",
      E("idle", composer=""), pick(GROK_SRC, "╭─╮ │ ❯ │ ╰─╯ box", "Shift+Tab:mode │ Ctrl+.:shortcuts"),
      ["the transcript rows", "the label row position"])
write("grok", "idle-typed", hist + gbox_typed + ["  Grok Build"] + idle_hints, W, 24,
      "synthetic: text typed into the prompt box, not submitted",
      E("idle", composer="please check the failing test"), pick(GROK_SRC, "╭─╮ │ ❯ │ ╰─╯ box", "Shift+Tab:mode │ Ctrl+.:shortcuts"),
      ["the typed text"])
write("grok", "working-waiting", hist + ["  ⠋ Waiting… 1.8s", ""] + gbox_empty + ["  Grok Build"] + run_hints, W, 24,
      "synthetic: a turn waiting on the model: spinner row and the running hints",
      E("working", composer="", hint="ctrl+c:cancel"), pick(GROK_SRC, "⠋ Waiting… 1.8s", "Ctrl+c:cancel │ Ctrl+Enter:interject"),
      [])
write("grok", "working-tool", hist + ["  ⠹ Read src/main.rs", ""] + gbox_empty + ["  Grok Build"] + idle_hints, W, 24,
      "synthetic: a tool running, shown only by the braille tool line (hints not drawn)",
      E("working", composer="", hint="spinner row"), pick(GROK_SRC, "⠹ Read src/main.rs"),
      ["the file name", "idle hints kept to show the tool line alone decides"])
write("grok", "working-stop-chip", hist + ["  ⠋ Thinking 3.2s [stop]", ""] + gbox_empty + ["  Grok Build"] + idle_hints, W, 24,
      "synthetic: the newer spinner row with its `[stop]` chip",
      E("working", composer="", hint="spinner row"), pick(GROK_SRC, "⠋ Thinking 3.2s [stop]"),
      [])
write("grok", "permission", hist + [
    "  Run: cargo test",
    "",
    "  ❯ Yes, proceed",
    "    No, reject",
    "",
    "  Use ← → to choose permission whitelist scope",
], W, 24,
      "synthetic: the permission selector",
      E("dialog", "permission"), pick(GROK_SRC, "Yes, proceed / No, reject", "Use ← → to choose permission whitelist scope"),
      ["the `Run: cargo test` line", "the `❯` marker on the selected option"])
print("ok")
