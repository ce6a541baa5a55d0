#!/usr/bin/env python3
"""A mesh in Rodinia cfd's format (its data files are not in the
repository): the element count, then per element its volume and, for each
of its 4 faces, the neighbour (1-based; 0 = wall, negative = far field) and
the face's normal scaled by its area. The elements are the cells of a W x H
grid of quadrilateral prisms, walls above and below and around a block in
the middle, far field left and right; cell sizes vary so that the flow is
not uniform.  usage: cfd_mesh.py W H OUT"""
import sys

w, h, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
dx = [1.0 + 0.5 * ((i * 7) % 5) / 5 for i in range(w)]
dy = [1.0 + 0.5 * ((j * 3) % 4) / 4 for j in range(h)]
block = {(i, j) for i in range(w // 3, w // 3 + max(1, w // 8)) for j in range(h // 3, h // 3 + max(1, h // 4))}


def number(i, j):
    return j * w + i + 1


with open(out, "w") as f:
    f.write(f"{w * h}\n")
    for j in range(h):
        for i in range(w):
            faces = []
            for (di, dj, nx, ny, area) in [(-1, 0, -1.0, 0.0, dy[j]), (1, 0, 1.0, 0.0, dy[j]), (0, -1, 0.0, -1.0, dx[i]), (0, 1, 0.0, 1.0, dx[i])]:
                ni, nj = i + di, j + dj
                if not 0 <= ni < w:
                    nb = -1
                elif not 0 <= nj < h or (ni, nj) in block or (i, j) in block:
                    nb = 0
                else:
                    nb = number(ni, nj)
                faces.append(f"{nb} {nx * area:.6f} {ny * area:.6f} 0.0")
            f.write(f"{dx[i] * dy[j]:.6f} " + " ".join(faces) + "\n")
