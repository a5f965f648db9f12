"""The ONNX models Tableside loads, their model cards, and the recipes that train them."""
