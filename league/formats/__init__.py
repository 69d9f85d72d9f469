"""Date and number formats of the league's languages, where they differ from Django's own."""
