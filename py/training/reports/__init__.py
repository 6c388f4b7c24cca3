"""Reports made from measurements: evaluation, results JSONs, model cards, tables, page facts, training history."""
