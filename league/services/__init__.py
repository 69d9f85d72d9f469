"""Operations on tournaments that change data: creating them, registering
players, drawing tables. Views call these; each runs in one transaction and
refuses bad requests with a translated ``ValidationError`` before writing."""
