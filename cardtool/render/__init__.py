"""Rendering at the edge: typed contexts in, templates rendered, files written atomically."""
