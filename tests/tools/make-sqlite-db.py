#!/usr/bin/env python3
# The database of tests/traces/app/*sqlite3*: 100000 rows of a table
# t(id integer primary key, k text, v blob), k eight random hex digits,
# v 50 to 399 random bytes, an index on k, 4 KiB pages (26 MiB; the same
# bytes for the same seed under Python 3.11's sqlite3).
# Usage: make-sqlite-db.py OUT.sqlite
import random
import sqlite3
import sys

R = random.Random(7)
c = sqlite3.connect(sys.argv[1])
c.execute('pragma page_size=4096')
c.execute('create table t(id integer primary key, k text, v blob)')
c.executemany('insert into t values (?,?,?)',
              ((i, '%08x' % R.getrandbits(32),
                R.randbytes(R.randrange(50, 400))) for i in range(100000)))
c.execute('create index tk on t(k)')
c.commit()
