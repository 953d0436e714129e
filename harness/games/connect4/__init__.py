"""Connect Four: positions in Pons's notation, exact scores in his convention."""
