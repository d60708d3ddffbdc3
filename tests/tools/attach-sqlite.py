#!/usr/bin/env python3
# attach-sqlite.py DB: a program with a database open, for 'ralab record
# -p' (tests/tools/record-app.sh --attach): it opens DB (made by
# make-sqlite-db.py) with SQLite, looks a few rows up by rowid (so part
# of the file is in the page cache, and its descriptor has read), prints
# "ready", waits for a byte on stdin, then looks more rows up and scans
# a range by the index on k, as a database serving queries would.
import sqlite3
import sys

c = sqlite3.connect(sys.argv[1])
for i in (1, 5000, 20000, 60000):
    c.execute('select length(v) from t where id = ?', (i,)).fetchall()
print('ready', flush=True)
sys.stdin.read(1)
for i in (7, 777, 7777, 17000, 50000, 99999, 42424, 31337):
    c.execute('select length(v) from t where id = ?', (i,)).fetchall()
c.execute("select count(*), sum(length(v)) from t where k between '3000' and '3100'").fetchall()
