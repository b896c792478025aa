"""One consistent command line: an option name means the same thing in every command."""

from __future__ import annotations

from collections import defaultdict

import typer

from botpsy.cli import app

ASSISTANT_COMMANDS = ("ask", "chat", "serve", "mcp", "audit", "init", "import")
IN_SCOPE = (*ASSISTANT_COMMANDS, "eval")  # train and bench are tools for developers
# Options that must read the same (help text included) wherever they appear.
SHARED = ("--data-dir", "--safety-config", "--format", "--json", "--verbose", "--n-ctx")


def _commands(command, path: str = "") -> dict:
    """Command path ("eval scenarios") -> the click command (typer's own click classes)."""
    found = {path.strip(): command} if path else {}
    if hasattr(command, "commands"):
        for name, sub in command.commands.items():
            found |= _commands(sub, f"{path} {name}")
    return found


def _options() -> dict[str, dict]:
    """Command path -> option name -> the option (hidden deprecated aliases left out), for
    the user-facing commands."""
    table: dict[str, dict] = {}
    for path, command in _commands(typer.main.get_command(app)).items():
        if path.split()[0] not in IN_SCOPE:
            continue
        table[path] = {name: param for param in command.params
                       if param.param_type_name == "option" and not param.hidden
                       for name in param.opts + param.secondary_opts}
    return table


def test_every_assistant_command_takes_data_dir():
    table = _options()
    missing = [c for c in ASSISTANT_COMMANDS if "--data-dir" not in table[c]]
    assert not missing


def test_an_option_name_has_one_meaning_everywhere():
    """A name is a switch everywhere, a file or folder everywhere, or a value everywhere
    (``--safety`` was a file in ``ask`` and a switch in ``eval``)."""
    seen: dict[str, set[str]] = defaultdict(set)
    for options in _options().values():
        for name, option in options.items():
            kind = str(option.bare_type())
            seen[name].add("switch" if option.is_flag else "path" if kind == "Path" else "value")
    clashes = {name: kinds for name, kinds in seen.items() if len(kinds) > 1}
    assert not clashes


def test_shared_options_read_the_same_in_every_command():
    helps: dict[str, set[str]] = defaultdict(set)
    for path, options in _options().items():
        if path not in ASSISTANT_COMMANDS:
            continue  # eval's --format adds what prompt mode does
        for name in SHARED:
            if name in options:
                helps[name].add(options[name].help)
    assert set(helps) == set(SHARED)
    assert {name: texts for name, texts in helps.items() if len(texts) > 1} == {}


def test_safety_is_a_switch_and_its_file_is_safety_config():
    for path, options in _options().items():
        if "--safety" in options:
            assert options["--safety"].is_flag, path  # eval's --safety/--no-safety
        if "--safety-config" in options:
            assert str(options["--safety-config"].bare_type()) == "Path", path


def test_model_has_the_short_form_wherever_it_is_taken():
    for path, options in _options().items():
        if "--model" in options and path.split()[0] in ("ask", "chat", "serve", "eval"):
            assert "-m" in options["--model"].opts, path
