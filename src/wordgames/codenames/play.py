"""A terminal game: a person plays sender or receiver with an embedding agent (rich prompts).

Everything goes through :class:`~wordgames.codenames.game.Game`; this module only turns it into
prompts and a screen, so the same game can be driven by scripts (tests feed stdin).

The board keeps its places for the whole game (a guessed word stays where it was, marked),
every word carries a text marker besides its colour, so that the game reads the same with
``NO_COLOR`` set::

    [B] blue word (your team's; shown to the sender only)   [R] red word (sender only)
    [ ] word not yet guessed                                [+] blue word found
    [x] red word hit

A score line (turn, blue words found, red words hit) comes before every move, and a summary of
every turn at the end.
"""

from __future__ import annotations

from wordgames.codenames.board import Board, IllegalClueError
from wordgames.codenames.game import (
    CallableReceiver,
    CallableSender,
    Game,
    GameResult,
    IllegalGuessError,
)

#: marker and style of each state of a board word
MARKERS = {
    "hidden": ("[ ]", ""),
    "blue": ("[B]", "blue"),
    "red": ("[R]", "red"),
    "found": ("[+]", "bold blue"),
    "hit": ("[x]", "bold red"),
}
COLUMNS = 5


def legend(colours: bool) -> str:
    """The markers in words (the sender's view shows the colours of hidden words).

    >>> legend(False)
    '[ ] not guessed   [+] blue, found   [x] red, hit'
    """
    parts = ["[B] blue (your team's)", "[R] red"] if colours else ["[ ] not guessed"]
    return "   ".join([*parts, "[+] blue, found", "[x] red, hit"])


class Screen:
    """What the person sees: the board in fixed places, the score line, the summary.

    Parameters
    ----------
    console : rich.console.Console
    board : Board
        The board as dealt: its display order fixes every word's place.
    colours : bool
        Whether the person may see the colours of hidden words (the sender).
    """

    def __init__(self, console, board: Board, colours: bool):
        self.console = console
        self.board = board
        self.colours = colours
        self.width = max(len(w) for w in board.words) + 6  # "[+] " and two spaces

    def state(self, word: str, game: Game) -> str:
        if word not in game.board.words:  # guessed: taken off the board
            return "found" if word in self.board.blue else "hit"
        if not self.colours:
            return "hidden"
        return "blue" if word in self.board.blue else "red"

    def cell(self, word: str, game: Game):
        """One board word with its marker, padded to the board's fixed cell width."""
        from rich.text import Text

        marker, style = MARKERS[self.state(word, game)]
        return Text(f"{marker} {word}".ljust(self.width), style=style)

    def show_board(self, game: Game) -> None:
        """The board in its fixed places, then the legend of the markers."""
        from rich.text import Text

        words = list(self.board.words)
        for i in range(0, len(words), COLUMNS):
            line = Text("  ")
            for w in words[i : i + COLUMNS]:
                line.append_text(self.cell(w, game))
            line.rstrip()
            self.console.print(line, highlight=False)
        self.console.print(legend(self.colours), highlight=False, style="dim", markup=False)

    def score_line(self, game: Game) -> str:
        """``turn t of T | blue found b of B | red hit r``."""
        res = game.result()
        turn = min(len(game.history) + (0 if game.done else 1), game.max_turns)
        return (
            f"turn {turn} of {game.max_turns} | blue found {res.blue_found} of "
            f"{len(self.board.blue)} | red hit {res.red_hit}"
        )

    def show_status(self, game: Game) -> None:
        self.console.print(self.score_line(game), highlight=False, style="bold")
        self.show_board(game)

    def guesses(self, words, colors) -> str:
        return ", ".join(
            f"{MARKERS['found' if c == 'blue' else 'hit'][0]} {w}"
            for w, c in zip(words, colors, strict=True)
        )

    def summary(self, game: Game) -> GameResult:
        """The board with every colour shown, every turn (clue, number, guesses), the outcome."""
        from rich.table import Table

        from wordgames.textio import literal

        res = game.result()
        self.console.rule("game over")
        self.colours = True  # the colours are no secret any more
        self.show_board(game)
        table = Table(show_header=True, box=None, padding=(0, 2))
        for c in ("turn", "clue", "guesses"):
            table.add_column(c, overflow="fold")
        for i, t in enumerate(res.history, start=1):
            shown = self.guesses(t.guesses, t.colors) or "no guess"
            table.add_row(str(i), literal(f"{t.clue} {t.number}"), literal(shown))
        self.console.print(table)
        hits = f"{res.red_hit} red hit{'s' if res.red_hit != 1 else ''}"
        if res.solved:
            self.console.print(
                f"all blue words found in {res.turns} turn(s) ({hits})",
                style="bold green",
                highlight=False,
            )
        else:
            self.console.print(
                f"{res.blue_left} blue word(s) left after {res.turns} turn(s): found "
                f"{res.blue_found} of {len(self.board.blue)} ({hits})",
                style="bold red",
                highlight=False,
            )
        return res


def _human_sender(screen: Screen, ask, game_ref: list):
    from wordgames.textio import literal

    console = screen.console

    def human_clue(b: Board):
        console.rule("your clue")
        screen.show_status(game_ref[0])
        while True:
            text = ask("clue and number (e.g. 'animal 2')").strip().split()
            if len(text) == 2 and text[1].isdigit():
                try:
                    return b.check_clue(text[0]), int(text[1])
                except IllegalClueError as exc:
                    console.print(f"[red]{literal(str(exc))}[/]")
                    continue
            console.print("[red]type one word and a number[/]")

    return human_clue


def _human_receiver(screen: Screen, ask, game_ref: list):
    from wordgames.textio import literal

    console = screen.console

    def human_guess(words, clue, number):
        game = game_ref[0]
        console.rule(f"clue: [bold]{literal(clue)}[/] {number}")
        screen.show_status(game)
        picks = []
        while len(picks) < number:
            g = ask(f"guess {len(picks) + 1} of {number} (empty to stop)").strip().lower()
            if not g:
                break
            if g not in words or g in picks:
                console.print(f"[red]{literal(repr(g))} is not a word left on the board[/]")
                continue
            picks.append(g)
            if g not in game.board.blue:  # a red guess ends the turn
                console.print(f"{MARKERS['hit'][0]} {g} is red", style="red", markup=False)
                break
            console.print(f"{MARKERS['found'][0]} {g} is blue", style="blue", markup=False)
        return picks

    return human_guess


def play_terminal(
    board: Board, role: str, agent, *, max_turns: int = 10, console=None, ask=None
) -> GameResult:
    """Play one game at the terminal.

    ``role`` is the person's role: ``"sender"`` (the agent guesses) or ``"receiver"`` (the agent
    gives clues). ``ask(prompt) -> str`` reads a line (default: rich's ``Prompt.ask``). The
    board keeps its places, a score line comes before every move and a summary at the end
    (:class:`Screen`). Returns the :class:`~wordgames.codenames.game.GameResult`.
    """
    from rich.console import Console
    from rich.prompt import Prompt

    from wordgames.textio import literal

    console = console or Console(emoji=False)  # a word is printed as given
    ask = ask or (lambda prompt: Prompt.ask(prompt, console=console))
    screen = Screen(console, board, colours=role == "sender")
    game_ref: list = []
    if role == "sender":
        sender = CallableSender(_human_sender(screen, ask, game_ref))
        game = Game(board, sender, agent, max_turns=max_turns)
    elif role == "receiver":
        receiver = CallableReceiver(_human_receiver(screen, ask, game_ref))
        game = Game(board, agent, receiver, max_turns=max_turns)
    else:
        raise ValueError(f"role must be 'sender' or 'receiver', got {role!r}")
    game_ref.append(game)
    while not game.done:
        try:
            turn = game.play_turn()
        except (IllegalClueError, IllegalGuessError) as exc:  # the agent's, not the person's
            console.print(f"[red]the agent gave up: {literal(str(exc))}[/]")
            break
        console.print(
            f"clue {turn.clue} {turn.number}: "
            f"{screen.guesses(turn.guesses, turn.colors) or 'no guess'}",
            highlight=False,
            markup=False,
        )
    return screen.summary(game)
