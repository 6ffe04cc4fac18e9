"""The dice-placement core shared by The Voyages of Marco Polo and Marco Polo II (`voyages`, `khan`).

Owns: what the two engines do alike (seating and the character draft order, rolling and compensation,
action-space placements with their occupancy fee and one-colour rule, black dice, bonus-action dice
handling, the pending-choice queue, rounds, logging and rule counters).
Must not: know either game's components or rules that only one game has; do I/O.
"""
