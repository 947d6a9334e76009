#!/usr/bin/env python3
"""Writes imagewall(1) in mdoc from the command's own help, as `imagewall --experimental-dump-help`
gives it (ArgumentParser's description of every command, option, default and value): the man
page says what `--help` says. Unlike ArgumentParser's manual plugin, which drops every character
outside ASCII, it keeps them (as roff's \\[uXXXX] escapes): the examples' `·`, `…`, `★`.
usage: imagewall --experimental-dump-help | manpage.py [DATE] > docs/imagewall.1"""
import json
import sys


def escaped(text):
    """`text` for a roff text line or macro argument: backslashes as \\e, every character
    outside ASCII as \\[uXXXX]."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\e")
        elif ord(ch) > 127:
            out.append("\\[u%04X]" % ord(ch) if ord(ch) <= 0xFFFF else "\\[u%05X]" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def text_line(line):
    """A line of running text: one that would start with a dot or an apostrophe (a request to
    roff) is guarded by a zero-width space."""
    line = escaped(line)
    return "\\&" + line if line[:1] in (".", "'") else line


def argument(text):
    """A macro argument: quoted when it holds a blank, a double quote written \\(dq."""
    text = escaped(text).replace('"', "\\(dq")
    return '"%s"' % text if (" " in text or not text) else text


def discussion(text):
    """A command's discussion: paragraphs of running text; indented lines (examples, the exit
    statuses) kept as they are, in a literal display."""
    lines, literal = [], False
    for line in text.split("\n"):
        indented = line.startswith("  ")
        if indented and not literal:
            lines.append(".Bd -literal -offset indent")
            literal = True
        elif not indented and literal:
            lines.append(".Ed")
            literal = False
        if literal:
            lines.append(text_line(line[2:]))
        elif line.strip() == "":
            lines.append(".Pp")
        else:
            lines.append(text_line(line))
    if literal:
        lines.append(".Ed")
    return lines


def option_item(option):
    """The .It line of an option: its names and value."""
    parts = []
    for n, name in enumerate(option.get("names", [])):
        flag = {"short": "-" + name["name"], "long": "--" + name["name"]}.get(name["kind"], "-" + name["name"])
        parts.append(("Fl " if n == 0 else ", Fl ") + argument(flag[1:]))
    if option["kind"] == "positional":
        parts = ["Ar " + argument(option["valueName"])]
        if option.get("isRepeating"):
            parts.append("...")
    elif option["kind"] == "option":
        parts.append("Ar " + argument(option["valueName"]))
    return ".It " + " ".join(parts)


def options(command):
    """The options of `command`, by the help's sections, with their help and defaults."""
    lines, section = [], None
    shown = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]
    for option in shown:
        title = option.get("sectionTitle") or ("ARGUMENTS" if option["kind"] == "positional" else "OPTIONS")
        if title != section:
            if section is not None:
                lines.append(".El")
            lines += [".Pp", ".Sy " + argument(title.upper() if title.isupper() else title), ".Bl -tag -width 6n"]
            section = title
        lines.append(option_item(option))
        about = option.get("abstract", "")
        if option.get("allValues") and "values:" not in about:
            about += " (values: %s)" % ", ".join(option["allValues"])
        if "defaultValue" in option and option["kind"] != "flag":
            about += " (default: %s)" % option["defaultValue"]
        lines.append(text_line(about.strip()))
        if option.get("discussion"):
            lines += [".Pp"] + discussion(option["discussion"])
    if section is not None:
        lines.append(".El")
    return lines


def page(tool, date):
    root = tool["command"]
    name = root["commandName"]
    lines = [
        '.\\" Made from `%s --experimental-dump-help` by Tools/manpage.py (make man): edit the help, not this.' % name,
        ".Dd " + date,
        ".Dt %s 1" % name.upper(),
        ".Os",
        ".Sh NAME",
        ".Nm " + name,
        ".Nd " + argument(root.get("abstract", "")),
        ".Sh SYNOPSIS",
        ".Nm",
        ".Ar command",
        ".Op Ar options",
        ".Nm",
        ".Op Fl -version",
        ".Op Fl -help",
        ".Sh DESCRIPTION",
    ]
    lines += discussion(root.get("discussion", ""))
    lines += options(root)
    lines.append(".Sh COMMANDS")
    for command in root.get("subcommands", []):
        if not command.get("shouldDisplay", True) or command["commandName"] == "help":
            continue
        lines += [".Ss " + argument("%s %s" % (name, command["commandName"])), text_line(command.get("abstract", ""))]
        if command.get("discussion"):
            lines += [".Pp"] + discussion(command["discussion"])
        lines += options(command)
    lines += [".Sh SEE ALSO", "The README of the ImageWall package."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(page(json.load(sys.stdin), sys.argv[1] if len(sys.argv) > 1 else "ImageWall"))
