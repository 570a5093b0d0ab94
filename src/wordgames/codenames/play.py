"""A terminal game: a person plays sender or receiver with an embedding agent (rich prompts).

Everything goes through :class:`~wordgames.codenames.game.Game`; this module only turns it into
prompts and tables, so the same game can be driven by scripts (tests feed stdin).
"""

from __future__ import annotations

from wordgames.codenames.board import Board, IllegalClueError
from wordgames.codenames.game import CallableReceiver, CallableSender, Game, IllegalGuessError


def _show_board(console, board: Board, colours: bool) -> None:
    from rich.markup import escape
    from rich.table import Table

    table = Table(show_header=False, box=None, padding=(0, 2))
    words = list(board.words)
    cols = 5
    for i in range(0, len(words), cols):
        cells = []
        for w in words[i : i + cols]:
            if colours:
                cells.append(
                    f"[bold blue]{escape(w)}[/]" if w in board.blue else f"[red]{escape(w)}[/]"
                )
            else:
                cells.append(escape(w))
        table.add_row(*cells)
    console.print(table)


def play_terminal(
    board: Board, role: str, agent, *, max_turns: int = 10, console=None, ask=None
) -> object:
    """Play one game at the terminal.

    ``role`` is the person's role: ``"sender"`` (the agent guesses) or ``"receiver"`` (the agent
    gives clues). ``ask(prompt) -> str`` reads a line (default: rich's ``Prompt.ask``). Returns the
    :class:`~wordgames.codenames.game.GameResult`.
    """
    from rich.console import Console
    from rich.markup import escape
    from rich.prompt import Prompt

    console = console or Console()
    ask = ask or (lambda prompt: Prompt.ask(prompt, console=console))

    if role == "sender":

        def human_clue(b: Board):
            console.rule(f"your turn: {len(b.blue)} blue word(s) left")
            _show_board(console, b, colours=True)
            while True:
                text = ask("clue and number (e.g. 'animal 2')").strip().split()
                if len(text) == 2 and text[1].isdigit():
                    try:
                        return b.check_clue(text[0]), int(text[1])
                    except IllegalClueError as exc:
                        console.print(f"[red]{escape(str(exc))}[/]")
                        continue
                console.print("[red]type one word and a number[/]")

        game = Game(board, CallableSender(human_clue), agent, max_turns=max_turns)
    elif role == "receiver":

        def human_guess(words, clue, number):
            console.rule(f"clue: [bold]{escape(clue)}[/] {number}")
            _show_board(console, Board((), tuple(words), order=tuple(words)), colours=False)
            picks = []
            while len(picks) < number:
                g = ask(f"guess {len(picks) + 1} of {number} (empty to stop)").strip().lower()
                if not g:
                    break
                if g not in words or g in picks:
                    console.print(f"[red]{escape(repr(g))} is not a word left on the board[/]")
                    continue
                picks.append(g)
                if g not in game.board.blue:  # a red guess ends the turn
                    console.print(f"[red]{escape(g)} is red[/]")
                    break
                console.print(f"[blue]{escape(g)} is blue[/]")
            return picks

        game = Game(board, agent, CallableReceiver(human_guess), max_turns=max_turns)
    else:
        raise ValueError(f"role must be 'sender' or 'receiver', got {role!r}")

    while not game.done:
        try:
            turn = game.play_turn()
        except (IllegalClueError, IllegalGuessError) as exc:  # pragma: no cover - prompts check
            console.print(f"[red]{escape(str(exc))}[/]")
            continue
        shown = ", ".join(f"{w} ({c})" for w, c in zip(turn.guesses, turn.colors, strict=True))
        console.print(
            f"clue [bold]{escape(turn.clue)}[/] {turn.number}: {escape(shown) or 'no guess'}"
        )
    res = game.result()
    if res.solved:
        console.print(f"[bold green]all blue words found in {res.turns} turn(s)[/]")
    else:
        console.print(f"[bold red]{res.blue_left} blue word(s) left after {res.turns} turn(s)[/]")
    return res
