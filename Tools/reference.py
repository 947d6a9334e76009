#!/usr/bin/env python3
"""Writes docs/reference.md, every command and option in Markdown, from the command's own help as
`imagewall --experimental-dump-help` gives it: the page says what `--help` and the man page say
(Tools/manpage.py makes the man page from the same dump).
usage: imagewall --experimental-dump-help | reference.py > docs/reference.md"""
import json
import sys


def cell(text):
    """`text` as a table cell: pipes escaped, line breaks as spaces."""
    return " ".join(text.split()).replace("|", "\\|")


def discussion(text):
    """A command's discussion: paragraphs of running text; indented lines (examples, the exit
    statuses) kept as they are, in a fenced block."""
    lines, literal = [], False
    for line in text.split("\n"):
        indented = line.startswith("  ")
        if indented and not literal:
            if lines and lines[-1] != "":
                lines.append("")
            lines.append("```")
            literal = True
        elif not indented and literal:
            lines += ["```", ""]
            literal = False
        lines.append(line[2:] if literal else line.rstrip())
    if literal:
        lines.append("```")
    return lines


def names(option):
    """An option's names and value as the help writes them: `-o, --output <OUT.png>`."""
    if option["kind"] == "positional":
        return "<%s>%s" % (option["valueName"], " ..." if option.get("isRepeating") else "")
    flags = []
    for name in option.get("names", []):
        flags.append({"short": "-", "long": "--", "longWithSingleDash": "-"}.get(name["kind"], "-") + name["name"])
    text = ", ".join(flags)
    if option["kind"] == "option":
        text += " <%s>" % option["valueName"]
    return text


def options(command):
    """The options of `command`, a table for each of the help's sections."""
    lines, section = [], None
    for option in (a for a in command.get("arguments", []) if a.get("shouldDisplay", True)):
        title = option.get("sectionTitle") or ("Arguments" if option["kind"] == "positional" else "Options")
        if title != section:
            lines += ["", "**%s**" % (title.capitalize() if title.isupper() else title), "",
                      "| option | meaning |", "|---|---|"]
            section = title
        about = option.get("abstract", "")
        if option.get("allValues") and "values:" not in about:
            about += " (values: %s)" % ", ".join(option["allValues"])
        if "defaultValue" in option and option["kind"] != "flag":
            about += " (default: %s)" % option["defaultValue"]
        if option.get("discussion"):
            about += " " + option["discussion"]
        lines.append("| `%s` | %s |" % (names(option), cell(about.strip())))
    return lines


def page(tool):
    root = tool["command"]
    name = root["commandName"]
    lines = [
        "<!-- Made from `%s --experimental-dump-help` by Tools/reference.py (make man): edit the help, not this. -->"
        % name,
        "",
        "# Command reference",
        "",
        "Every command and option of `%s`, as `%s help COMMAND` and `man %s` give them. [Using the command]"
        "(usage.md) says how they fit together." % (name, name, name),
        "",
    ]
    commands = [c for c in root.get("subcommands", []) if c.get("shouldDisplay", True) and c["commandName"] != "help"]
    lines += ["- [`%s %s`](#%s-%s) — %s" % (name, c["commandName"], name, c["commandName"], c.get("abstract", ""))
              for c in commands]
    lines += ["", "## %s" % name, "", root.get("abstract", ""), ""] + discussion(root.get("discussion", ""))
    lines += options(root)
    for command in commands:
        lines += ["", "## %s %s" % (name, command["commandName"]), "", command.get("abstract", "")]
        if command.get("discussion"):
            lines += [""] + discussion(command["discussion"])
        lines += options(command)
    text = "\n".join(lines) + "\n"
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text


if __name__ == "__main__":
    sys.stdout.write(page(json.load(sys.stdin)))
