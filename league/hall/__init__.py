"""The hall on a tournament evening: the referees' control room ("sala") of a series and its clock."""
