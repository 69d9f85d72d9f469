"""The plain-rows base (gra na same liczby: a game of rows of numbers) a simple game extends.

A simple game's protocol is rows of one integer per seat, as the table writes them on paper, summing
to zero (or whatever the game's one rule of a row says): :class:`league.games.plain.game.PlainRowsGame`
answers every room for it — the row forms, the referee's page and corrections, the phone, the
history's words, the public and printed sheets, the exchange file's rows and the standings' rules —
and the game overrides only what is its own (docs/games.md, "Adding a third game").
"""
