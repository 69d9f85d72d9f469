"""A third game registered only in the tests: rows of one integer per seat summing to zero, built
on the plain-rows base (``league.games.plain``). Its end-to-end test keeps the games' seam open."""
