"""Dev tool: rebuild boardgame/data/westeros/layout.json, the schematic drawing of the Westeros map.

Each land and sea area gets one or more hand-placed seed points that follow the real geography (north
at the top, the Narrow Sea down the east side, Dorne at the bottom). Every area is the union of the
Voronoi cells of its seeds, clipped to the viewbox, so neighbouring areas share exact borders and no two
areas overlap. Ports are small rectangles on their land area's coast, inside the sea they open onto.
The command prints how many of the map's borders the drawing shows, so seeds can be tuned.
Standard library only; the layout is data, so the game never runs this at request time.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from boardgame.dataset import DATA_DIR

Point = tuple[float, float]
WIDTH, HEIGHT = 1000.0, 1700.0

# Seed points per area (x right, y down). Several seeds shape long or large areas.
SEEDS: dict[str, list[Point]] = {
    # The North
    "castle_black": [(450, 60), (330, 60), (570, 60), (660, 45)],
    "karhold": [(660, 140), (730, 110)],
    "the_shivering_sea": [(860, 150), (790, 30), (950, 60), (770, 290), (880, 330), (950, 230)],
    "bay_of_ice": [(100, 180), (160, 60), (250, 170), (60, 330), (230, 420), (130, 420)],
    "the_stony_shore": [(190, 300), (260, 300)],
    "winterfell": [(450, 250), (400, 330), (580, 250), (490, 180), (330, 260), (640, 290)],
    "widows_watch": [(790, 420), (760, 380)],
    "white_harbor": [(620, 400), (560, 370), (710, 470), (680, 360)],
    "flints_finger": [(150, 520), (110, 560)],
    "greywater_watch": [(280, 470), (300, 540)],
    "moat_cailin": [(440, 500), (560, 510), (700, 540)],
    "the_narrow_sea": [(860, 520), (800, 580), (850, 690), (900, 790), (950, 600), (960, 860), (890, 810)],
    # The Riverlands, the Vale and the Westerlands
    "ironmans_bay": [(200, 660), (100, 630), (60, 700), (100, 760), (160, 730), (240, 730)],
    "pyke": [(110, 695)],
    "seagard": [(350, 620), (330, 580)],
    "the_twins": [(520, 600), (620, 590), (710, 590)],
    "the_fingers": [(770, 640)],
    "the_mountains_of_the_moon": [(600, 710), (690, 700), (775, 700)],
    "the_eyrie": [(790, 765)],
    "riverrun": [(360, 740), (290, 790)],
    "harrenhal": [(470, 790), (510, 840)],
    "crackclaw_point": [(640, 860), (740, 860), (790, 840)],
    "the_golden_sound": [(150, 850), (110, 900)],
    "lannisport": [(230, 920), (250, 960)],
    "stoney_sept": [(360, 900)],
    "blackwater": [(470, 950), (400, 1010), (560, 900)],
    "kings_landing": [(600, 985)],
    "blackwater_bay": [(700, 975), (730, 940)],
    "dragonstone": [(860, 960)],
    "shipbreaker_bay": [
        (810, 1030),
        (800, 910),
        (920, 900),
        (930, 1020),
        (870, 1090),
        (960, 1150),
        (830, 1120),
        (865, 885),
    ],
    "sunset_sea": [(50, 980), (20, 500), (15, 700), (15, 860), (20, 1050), (40, 1080)],
    # The Reach, the Stormlands and Dorne
    "searoad_marches": [(190, 1050), (280, 1030)],
    "the_reach": [(440, 1090), (500, 1160)],
    "kingswood": [(630, 1080), (680, 1140)],
    "storms_end": [(760, 1210), (720, 1170)],
    "highgarden": [(250, 1190), (310, 1200), (190, 1190)],
    "dornish_marches": [(390, 1280), (430, 1220), (330, 1360)],
    "the_boneway": [(560, 1270), (620, 1240)],
    "sea_of_dorne": [(730, 1310), (800, 1330)],
    "redwyne_straits": [(150, 1320), (190, 1300), (185, 1395)],
    "the_arbor": [(90, 1400)],
    "oldtown": [(250, 1320)],
    "three_towers": [(270, 1430), (300, 1480)],
    "princes_pass": [(430, 1390), (410, 1450)],
    "yronwood": [(600, 1410), (540, 1440)],
    "starfall": [(420, 1560), (360, 1560)],
    "salt_shore": [(620, 1550), (680, 1520)],
    "sunspear": [(780, 1450), (850, 1430)],
    "west_summer_sea": [
        (60, 1560),
        (70, 1130),
        (50, 1240),
        (30, 1360),
        (40, 1470),
        (200, 1640),
        (330, 1660),
        (120, 1190),
    ],
    "east_summer_sea": [(870, 1580), (600, 1670), (760, 1620), (960, 1460), (960, 1300), (880, 1260)],
}
# Label points of sea areas (seas are long and concave, so their centroid may sit on land).
SEA_LABELS: dict[str, Point] = {
    "the_narrow_sea": (900, 640),
    "shipbreaker_bay": (900, 1110),
    "the_shivering_sea": (860, 150),
    "sunset_sea": (55, 960),
    "ironmans_bay": (200, 655),
}
PORT_SIZE = (44.0, 26.0)  # along the coast, out to sea


def clip(poly: list[Point], site: Point, other: Point) -> list[Point]:
    """Keep the part of convex `poly` closer to `site` than to `other` (Sutherland-Hodgman)."""
    mx, my = (site[0] + other[0]) / 2, (site[1] + other[1]) / 2
    nx, ny = other[0] - site[0], other[1] - site[1]

    def inside(p: Point) -> bool:
        return (p[0] - mx) * nx + (p[1] - my) * ny <= 0

    def cross(p: Point, q: Point) -> Point:
        dp = (p[0] - mx) * nx + (p[1] - my) * ny
        dq = (q[0] - mx) * nx + (q[1] - my) * ny
        t = dp / (dp - dq)
        return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))

    out: list[Point] = []
    for i, cur in enumerate(poly):
        prev = poly[i - 1]
        if inside(cur):
            if not inside(prev):
                out.append(cross(prev, cur))
            out.append(cur)
        elif inside(prev):
            out.append(cross(prev, cur))
    return out


def voronoi_cells(sites: list[Point]) -> list[list[Point]]:
    """The Voronoi cell of every site, clipped to the viewbox."""
    box = [(0.0, 0.0), (WIDTH, 0.0), (WIDTH, HEIGHT), (0.0, HEIGHT)]
    cells = []
    for i, s in enumerate(sites):
        poly = box
        for j, t in enumerate(sites):
            if i != j and poly:
                poly = clip(poly, s, t)
        cells.append(poly)
    return cells


def key(p: Point) -> tuple[int, int]:
    return (round(p[0] * 10), round(p[1] * 10))


def merge(cells: list[list[Point]]) -> list[Point]:
    """Outline of the union of cells that share whole edges: drop edges met in both directions, chain the rest."""
    edges: dict[tuple, tuple] = {}
    for cell in cells:
        pts = [key(p) for p in cell]
        pts = [p for i, p in enumerate(pts) if p != pts[i - 1]]
        for i, p in enumerate(pts):
            q = pts[(i + 1) % len(pts)]
            if (q, p) in edges:
                del edges[(q, p)]
            else:
                edges[(p, q)] = (p, q)
    nxt = {p: q for p, q in edges}
    loops = []
    while nxt:
        start = next(iter(nxt))
        loop = [start]
        cur = nxt.pop(start)
        while cur != start and cur in nxt:
            loop.append(cur)
            cur = nxt.pop(cur)
        loops.append(loop)
    loops.sort(key=lambda lp: -abs(area_of([(x / 10, y / 10) for x, y in lp])))
    outer = [(x / 10, y / 10) for x, y in loops[0]]
    for hole in loops[1:]:  # an island inside a sea: join the hole to the outline by a zero-width slit
        inner = [(x / 10, y / 10) for x, y in hole]
        i, j = min(
            ((i, j) for i in range(len(outer)) for j in range(len(inner))),
            key=lambda ij: math.dist(outer[ij[0]], inner[ij[1]]),
        )
        outer = outer[: i + 1] + inner[j:] + inner[: j + 1] + outer[i:]
    return drop_collinear(outer)


def drop_collinear(pts: list[Point]) -> list[Point]:
    out = []
    for i, p in enumerate(pts):
        a, b = pts[i - 1], pts[(i + 1) % len(pts)]
        crossz = (p[0] - a[0]) * (b[1] - a[1]) - (p[1] - a[1]) * (b[0] - a[0])
        if abs(crossz) > 1e-3 * max(1.0, math.dist(a, b)):
            out.append(p)
    return out


def area_of(poly: list[Point]) -> float:
    return sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1], strict=True)) / 2


def centroid(poly: list[Point]) -> Point:
    a = area_of(poly)
    cx = sum(
        (p[0] + q[0]) * (p[0] * q[1] - q[0] * p[1]) for p, q in zip(poly, poly[1:] + poly[:1], strict=True)
    )
    cy = sum(
        (p[1] + q[1]) * (p[0] * q[1] - q[0] * p[1]) for p, q in zip(poly, poly[1:] + poly[:1], strict=True)
    )
    return (cx / (6 * a), cy / (6 * a))


def inside(poly: list[Point], p: Point) -> bool:
    res = False
    for a, b in zip(poly, poly[1:] + poly[:1], strict=True):
        if (a[1] > p[1]) != (b[1] > p[1]):
            x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if x > p[0]:
                res = not res
    return res


def shared_edges(p1: list[Point], p2: list[Point]) -> list[tuple[Point, Point]]:
    """Edges of p1 that p2 also has (in either direction)."""
    e2 = set()
    for a, b in zip(p2, p2[1:] + p2[:1], strict=True):
        e2.add((key(a), key(b)))
        e2.add((key(b), key(a)))
    out = []
    for a, b in zip(p1, p1[1:] + p1[:1], strict=True):
        if (key(a), key(b)) in e2:
            out.append((a, b))
    return out


def touching(p1: list[Point], p2: list[Point]) -> float:
    """Length of border two outlines share (collinear overlap of their edges)."""
    total = 0.0
    for a, b in zip(p1, p1[1:] + p1[:1], strict=True):
        la = math.dist(a, b)
        if la < 1e-6:
            continue
        ux, uy = (b[0] - a[0]) / la, (b[1] - a[1]) / la
        for c, d in zip(p2, p2[1:] + p2[:1], strict=True):
            # both ends of cd on the line of ab?
            if (
                abs((c[0] - a[0]) * uy - (c[1] - a[1]) * ux) > 0.3
                or abs((d[0] - a[0]) * uy - (d[1] - a[1]) * ux) > 0.3
            ):
                continue
            t1 = (c[0] - a[0]) * ux + (c[1] - a[1]) * uy
            t2 = (d[0] - a[0]) * ux + (d[1] - a[1]) * uy
            lo, hi = max(0.0, min(t1, t2)), min(la, max(t1, t2))
            if hi > lo:
                total += hi - lo
    return total


def build(map_data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Compute the layout dict and a report of map borders the drawing does not show."""
    areas = {a["id"]: a for a in map_data["areas"]}
    sites: list[Point] = []
    owner: list[str] = []
    for area_id, seeds in SEEDS.items():
        for s in seeds:
            sites.append(s)
            owner.append(area_id)
    cells = voronoi_cells(sites)
    by_area: dict[str, list[list[Point]]] = defaultdict(list)
    for area_id, cell in zip(owner, cells, strict=True):
        if len(cell) >= 3:
            by_area[area_id].append(cell)
    outlines = {a: merge(cs) for a, cs in by_area.items()}
    report: list[str] = []
    missing = sorted(a for a, d in areas.items() if d["kind"] != "port" and a not in outlines)
    report += [f"no seeds for {a}" for a in missing]

    result: dict[str, dict[str, Any]] = {}
    for area_id, poly in outlines.items():
        c = SEA_LABELS.get(area_id, SEEDS[area_id][0]) if areas[area_id]["kind"] == "sea" else centroid(poly)
        if not inside(poly, c):
            seeds = SEEDS[area_id]
            c = (sum(s[0] for s in seeds) / len(seeds), sum(s[1] for s in seeds) / len(seeds))
        result[area_id] = {
            "x": round(c[0], 1),
            "y": round(c[1], 1),
            "outline": [[round(x, 1), round(y, 1)] for x, y in poly],
        }

    for a in map_data["areas"]:
        if a["kind"] != "port":
            continue
        land, sea = outlines[a["land_area"]], outlines[a["sea_area"]]
        coast = shared_edges(land, sea)
        if coast:
            p, q = max(coast, key=lambda e: math.dist(*e))
        else:
            report.append(
                f"port {a['id']}: {a['land_area']} and {a['sea_area']} share no border in the drawing"
            )
            lc, sc = centroid(land), centroid(sea)
            p, q = (lc[0] - 20, lc[1]), (lc[0] + 20, lc[1])
            del sc
        length = math.dist(p, q)
        ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
        nx, ny = -uy, ux
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        if not inside(sea, (mid[0] + nx * 5, mid[1] + ny * 5)):
            nx, ny = -nx, -ny
        half, depth = min(PORT_SIZE[0], length * 0.8) / 2, PORT_SIZE[1]
        corners = [
            (mid[0] - ux * half, mid[1] - uy * half),
            (mid[0] + ux * half, mid[1] + uy * half),
            (mid[0] + ux * half + nx * depth, mid[1] + uy * half + ny * depth),
            (mid[0] - ux * half + nx * depth, mid[1] - uy * half + ny * depth),
        ]
        cx, cy = mid[0] + nx * depth / 2, mid[1] + ny * depth / 2
        result[a["id"]] = {
            "x": round(cx, 1),
            "y": round(cy, 1),
            "outline": [[round(x, 1), round(y, 1)] for x, y in corners],
        }

    # Which map borders does the drawing show?
    ids = [i for i in outlines]
    touch = {}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            length = touching(outlines[a], outlines[b])
            if length > 4:
                touch[frozenset((a, b))] = length
    edges = {frozenset(e) for e in map_data["adjacency"] if all(areas[x]["kind"] != "port" for x in e)}
    for e in sorted(edges - set(touch), key=sorted):
        report.append(f"border not drawn: {' - '.join(sorted(e))}")
    for e in sorted(set(touch) - edges, key=sorted):
        report.append(f"drawn but not adjacent: {' - '.join(sorted(e))} ({touch[e]:.0f})")
    shown = len(edges & set(touch))
    report.insert(
        0, f"{shown} of {len(edges)} land/sea borders drawn; {len(set(touch) - edges)} extra contacts"
    )
    ordered = {
        a["id"]: result[a["id"]]
        for a in sorted(
            map_data["areas"], key=lambda a: ({"land": 0, "sea": 1, "port": 2}[a["kind"]], a["id"])
        )
        if a["id"] in result
    }
    layout = {
        "schema_version": 1,
        "viewbox": [0, 0, int(WIDTH), int(HEIGHT)],
        "notes": [
            "Schematic drawing of the Westeros map for the SVG map page; not the printed board.",
            "x, y: label position; outline: polygon [[x, y], ...] in viewbox units (x right, y down).",
            "Land and sea areas tile the viewbox without overlapping; ports are small rectangles on the coast of "
            "their land area, drawn over the sea they open onto.",
            "Generated by `manage.py build_westeros_layout` from hand-placed seed points; then curated in the admin.",
        ],
        "areas": ordered,
    }
    return layout, report


class Command(BaseCommand):
    help = "Rebuild boardgame/data/westeros/layout.json (schematic map drawing) and report missing borders."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", default=str(DATA_DIR / "layout.json"))
        parser.add_argument("--dry-run", action="store_true", help="Only print the report.")

    def handle(self, *args: Any, **options: Any) -> None:
        map_data = json.loads((DATA_DIR / "map.json").read_text(encoding="utf-8"))
        layout, report = build(map_data)
        for line in report:
            self.stdout.write(line)
        if not options["dry_run"]:
            Path(options["output"]).write_text(json.dumps(layout, indent=1) + "\n", encoding="utf-8")
            self.stdout.write(self.style.SUCCESS(f"Wrote {options['output']}"))
