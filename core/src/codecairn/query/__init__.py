"""In-memory indexes over the stored structure: names, qualified names, containment, inheritance."""
