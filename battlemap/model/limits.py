"""Every bound on what an encounter may hold, written once.

The model's fields, the importers and the UI editors all read these numbers, so whatever a
DM can type, draw or import is something the loader accepts again: a saved file always
reopens. The bounds are what a real map can need, with room to spare; past them the
geometry (token shapes, cell sets, sight) would grow without bound, so a file asking for
more is refused by name.
"""

from __future__ import annotations

# --- the map ---------------------------------------------------------------------------

MAX_MAP_CELLS = 400
"""Most cells along either side of the map: 2,000 ft at 5 ft a cell, past any battle map
(a large Dungeondraft export is 100 to 150). Format 2 allowed 1,000; a fully explored map
that size took 1.5 s to read, its fog alone."""
MIN_CELL_FEET = 0.5
"""Smallest cell side in feet: a Gargantuan creature is then 40 x 40 cells."""
MAX_CELL_FEET = 100.0
"""Largest cell side in feet (an overland map)."""
COORD_LIMIT = 10_000.0
"""Largest absolute coordinate, in cells, of any point a file may give (wall ends, polygon
corners, lights). Walls are clipped much closer, to the map and ``MAP_MARGIN_CELLS``."""
MAP_MARGIN_CELLS = 5.0
"""How far outside the map walls, obstacles and terrain are kept, in cells: what is drawn
just past the border stays, what lies further out is cut at this margin (nothing on the map
can see or reach past it)."""
MIN_POSITION = -float(MAX_MAP_CELLS)
MAX_POSITION = 2.0 * MAX_MAP_CELLS
"""A creature's corner, in cells, lies in ``[MIN_POSITION, MAX_POSITION]`` (a shrunk or
re-imported map may leave creatures off it; they are kept, within these bounds)."""
MIN_PIXELS_PER_CELL = 0.1
MAX_PIXELS_PER_CELL = 10_000.0
"""A map image's cell is 0.1 to 10,000 of its pixels (a smaller one would scale the image
past what Qt can draw)."""
MAX_IMAGE_OFFSET = 100_000.0
"""Largest image pixel, either way, a map's corner may sit on (``Background.offset_x/y``)."""
MAX_IMAGE_NAME = 255
MAX_ENCOUNTER_JSON_BYTES = 64 * 1024 * 1024
"""Largest encounter JSON read (a ``.json`` file, or a ``.battlemap``'s ``encounter.json``);
saving refuses an encounter whose JSON would be larger."""
MAX_ENCOUNTER_JSON_VALUES = 600_000
"""Most JSON values an encounter's JSON may hold, counted as its commas in the bytes before
anything is parsed (commas inside texts count too: an upper bound). Reading grows with them,
about 1.3 microseconds each at worst (walls), so any file within this bound opens, or is
refused at its very last field, in under a second. Every collection at its own limit fits
(50,000 walls take 350,000); saving refuses a combination past it, by name."""

# --- how many ----------------------------------------------------------------------------

MAX_CREATURES = 2_000
MAX_WALLS = 50_000
"""Most wall, door and window segments; also the most obstacles and terrain regions."""
MAX_LIGHTS = 10_000
MAX_PARTY = 100
"""Most player characters' stat blocks in an encounter's party."""
MAX_FOG_CELLS = MAX_MAP_CELLS * MAX_MAP_CELLS
"""Most cells the fog remembers as revealed or explored: the largest map's."""
MAX_LOG = 20_000
"""Most lines (and roll records) a log keeps; past it the oldest are dropped, so a long
session never saves a file that its own limits would refuse to open."""
MAX_COMBATANTS = MAX_CREATURES

# --- text --------------------------------------------------------------------------------

MAX_NAME = 80
"""Longest name of a creature, stat block, obstacle or condition."""
MAX_ENCOUNTER_NAME = 200
MAX_RULESET_ID = 80
MAX_NOTES = 100_000
MAX_EVENT_TEXT = 2000
"""The longest text of one log line."""
MAX_TRIGGER = 300
"""The longest trigger of a readied action."""
MAX_DICE_EXPRESSION = 200
"""The longest dice expression rolled (and kept in a roll record)."""
MAX_ROLL_DETAIL = 2000
"""The longest dice detail a roll record keeps; a longer one is cut."""
MAX_ROLL_PURPOSE = 200
MAX_DICE_PER_ROLL = 1000
"""Most dice one roll may throw (and a roll record keeps)."""

# --- a creature's numbers ----------------------------------------------------------------

MAX_HP = 100_000
"""Largest hit points, hit point maximum and temporary hit points."""
MAX_AC = 50
MAX_REACH_FEET = 100
MAX_SPEED_FEET = 1000
MAX_CHARACTER_LEVEL = 30
"""The highest character level a creature or player character's stat block may have."""

# --- ranges ------------------------------------------------------------------------------

MAX_LIGHT_RANGE_CELLS = 1000.0
MAX_LIGHT_INTENSITY = 100.0
MAX_SIGHT_RANGE_FEET = 10_000
