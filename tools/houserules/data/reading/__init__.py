"""Reading and validation: the strict YAML reader, the vocabularies, the JSON Schemas, the model and the loader."""
