#!/usr/bin/env python3
"""Hurricane records in Rodinia nn's format (the fields and widths of its
hurricane_gen.c, which seeds with the time of day; this one is seeded),
and the file list.  usage: nn_records.py RECORDS FILES SEED"""
import os
import random
import sys

canes, files, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
names = ["ALBERTO", "BERYL", "CHRIS", "DEBBY", "ERNESTO", "FLORENCE", "GORDON", "HELENE", "ISAAC", "JOYCE", "KIRK",
         "LESLIE", "MICHAEL", "NADINE", "OSCAR", "PATTY", "RAFAEL", "SANDY", "TONY", "VALERIE", "WILLIAM"]
os.makedirs("data", exist_ok=True)
with open(f"filelist_{files}", "w") as fl:
    for j in range(files):
        name = f"data/cane{files}_{j}.db"
        fl.write(name + "\n")
        with open(name, "w") as f:
            for _ in range(canes):
                lat = 7 + rng.randrange(63) + rng.random()
                lon = rng.randrange(358) + rng.random()
                f.write("%4d %2d %2d %2d %2d %-9s %5.1f %5.1f %4d %4d\n" % (
                    1950 + rng.randrange(55), 1 + rng.randrange(12), 1 + rng.randrange(28), rng.choice([0, 6, 12, 18]),
                    1 + rng.randrange(28), rng.choice(names), lat, lon, 10 + rng.randrange(155), rng.randrange(900)))
