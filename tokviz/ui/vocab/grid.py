"""Where each text of a :class:`~tokviz.core.vocab.maps.SplitMap` sits in the heatmap's grid, and the
grid as the arrays the heatmap paints from. Qt-free, so the vocabulary process computes the arrays
with the map: reading 10,000 rows' cuts took the GUI thread ~35 ms when the map arrived."""

from __future__ import annotations

import numpy as np

INDENT_COLUMNS = (("space", False), ("space", True), ("tab", False), ("tab", True))


def map_grid(split_map) -> list[list]:
    """Rows of cells (a ``SplitRow`` or None): numbers 100 per row (10 for a short map), indentation
    one row per width with the four :data:`INDENT_COLUMNS`."""
    if split_map is None:
        return []
    if split_map.kind == "numbers":
        rows = list(split_map.rows)
        width = 100 if len(rows) > 100 else 10
        return [rows[i : i + width] for i in range(0, len(rows), width)]
    by_label = {r.label: r for r in split_map.rows}
    longest = max((int(r.label.split()[0]) for r in split_map.rows), default=0)
    grid = []
    for n in range(1, longest + 1):
        cells = []
        for name, code in INDENT_COLUMNS:
            label = f"{n} {name}{'s' if n > 1 else ''}" + (" + code" if code else "")
            cells.append(by_label.get(label))
        grid.append(cells)
    return grid


def cell_arrays(split_map, grid: list[list]) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, ticks)``: tokens per cell (0: no cell) and, for the number map, each cut as
    ``(row, column, fraction across its cell)`` — what ``heatmap.cell_pixels`` takes."""
    cols = max((len(r) for r in grid), default=0)
    counts = np.zeros((len(grid), cols), dtype=np.int64)
    placed = [(r, c, cell) for r, cells in enumerate(grid) for c, cell in enumerate(cells) if cell is not None]
    if not placed:
        return counts, np.zeros((0, 3))
    at = np.array([(r, c) for r, c, _ in placed], dtype=np.int64)
    counts[at[:, 0], at[:, 1]] = [len(cell.ids) for _, _, cell in placed]
    if split_map.kind != "numbers":
        return counts, np.zeros((0, 3))
    per_cell = np.array([len(cell.cuts) for _, _, cell in placed], dtype=np.int64)
    cuts = np.fromiter((cut for _, _, cell in placed for cut in cell.cuts), dtype=np.float64, count=per_cell.sum())
    lengths = np.array([len(cell.text) for _, _, cell in placed], dtype=np.float64)
    owner = np.repeat(np.arange(len(placed)), per_cell)
    ticks = np.column_stack([at[owner, 0], at[owner, 1], cuts / lengths[owner]])
    return counts, ticks.reshape(-1, 3)
