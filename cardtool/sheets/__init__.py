"""Spreadsheets of a deck's cards: `cardtool export` writes them, `cardtool import` merges edits back.

What lives here: the cell encoding (cells.py: how a YAML value becomes a cell and back), reading and
writing CSV, XLSX (openpyxl) and ODS (odfpy) files (books.py, odsbook.py), and the merge into the deck's
own YAML files with ruamel.yaml's round trip, which keeps comments, key order and every untouched byte
(merge.py). Game-neutral: sheets are made from the card files' own fields, one sheet per card kind.
Who may import it: the export and import commands, and tests. docs/spreadsheets.md explains the format.
"""
