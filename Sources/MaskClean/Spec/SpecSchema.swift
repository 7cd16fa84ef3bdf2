/// The JSON Schema (draft 2020-12) of a spec, as docs/spec.schema.json holds it byte for byte
/// (a test compares them): `maskclean schema` prints it, so that the binary needs no docs folder.
/// Edit docs/spec.schema.json, then paste it here between the quotes, indented by 8 spaces.
public enum SpecSchema {
    public static let text = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "urn:maskclean:spec",
          "title": "maskclean spec",
          "description": "Which columns maskclean masks, and how (docs/spec.md). The loader checks more than this schema says: formats compile, added column names differ, keys of one syntax only.",
          "type": "object",
          "properties": {
            "columns": {
              "description": "The columns to mask, at least one.",
              "type": "array",
              "minItems": 1,
              "items": { "$ref": "#/$defs/column" }
            },
            "notations": {
              "description": "Custom slot characters for every input-mask column.",
              "type": "array",
              "default": [],
              "items": { "$ref": "#/$defs/notation" }
            },
            "maxDrop": {
              "description": "Against a baseline report (--baseline), the most any column's complete ratio may fall since it, for columns that give none.",
              "type": ["number", "null"],
              "minimum": 0,
              "maximum": 1,
              "default": null
            },
            "maxRowsChange": {
              "description": "Against a baseline report (--baseline), the most the row count may change, either way, as a fraction of the baseline's.",
              "type": ["number", "null"],
              "minimum": 0,
              "maximum": 1,
              "default": null
            },
            "maxRejected": {
              "description": "The most records that may be rejected (skipped or quarantined) before the run fails.",
              "type": "integer",
              "minimum": 0,
              "maximum": 999999999999999,
              "default": 0
            },
            "minRows": {
              "description": "The fewest records the input may hold before the run fails.",
              "type": "integer",
              "minimum": 0,
              "maximum": 999999999999999,
              "default": 1
            },
            "samples": {
              "description": "How many cells of each status short of complete every report keeps per column; 0 for none.",
              "type": "integer",
              "minimum": 0,
              "maximum": 1000,
              "default": 5
            },
            "key": {
              "description": "The column, or the columns, whose values name a record: every sample in the reports carries them.",
              "type": ["string", "array"],
              "anyOf": [
                {"type": "string", "minLength": 1},
                {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1}
              ]
            }
          },
          "required": ["columns"],
          "additionalProperties": false,
          "$defs": {
            "column": {
              "description": "One input column to mask, and what to do with it.",
              "type": "object",
              "properties": {
                "name": {
                  "description": "The input column: a CSV or TSV header name, or a JSON key or a path into the record (contact.phone, phones[0]; docs/record-formats.md#nested-values).",
                  "type": "string",
                  "minLength": 1
                },
                "kind": {
                  "description": "phone: the column holds telephone numbers of any country, read by their numbering plans in place of format and affineFormats.",
                  "type": "string",
                  "enum": ["phone"]
                },
                "format": {
                  "description": "The primary format, in the column's syntax; required unless kind is given.",
                  "type": "string"
                },
                "affineFormats": {
                  "description": "Alternative formats; each value gets the one it fits best.",
                  "type": "array",
                  "default": [],
                  "items": { "type": "string" }
                },
                "affinityStrategy": {
                  "description": "How the format a value gets is chosen among format and affineFormats.",
                  "type": "string",
                  "enum": ["bestStatus", "wholeString", "prefix", "capacity", "extractedValueCapacity"],
                  "default": "bestStatus"
                },
                "syntax": {
                  "description": "The syntax of format and affineFormats.",
                  "type": "string",
                  "enum": ["input-mask", "akmask", "maskara"],
                  "default": "input-mask"
                },
                "autocomplete": {
                  "description": "Append the format's literals that follow where the value ended.",
                  "type": "boolean",
                  "default": true
                },
                "notations": {
                  "description": "input-mask only: custom slot characters for this column; a character declared spec-wide is replaced.",
                  "type": "array",
                  "default": [],
                  "items": { "$ref": "#/$defs/notation" }
                },
                "rightToLeft": {
                  "description": "input-mask only: apply the format from the end of the value.",
                  "type": "boolean",
                  "default": false
                },
                "template": {
                  "description": "akmask only: the template column's characters for unfilled slots, one or one per position of the mask.",
                  "type": ["string", "null"],
                  "default": null
                },
                "symbols": {
                  "description": "maskara only: the characters that are literals, replacing the default set +- () (null: the default).",
                  "type": ["string", "null"],
                  "default": null
                },
                "trim": {
                  "description": "Strip leading and trailing white space before masking; a cell of white space only is empty.",
                  "type": "boolean",
                  "default": false
                },
                "replace": {
                  "description": "Write the formatted, extracted or normalized value into the input column itself, for complete cells.",
                  "type": "string",
                  "enum": ["formatted", "extracted", "normalized"]
                },
                "replaceIncomplete": {
                  "description": "With replace: replace lossy and incomplete cells too.",
                  "type": "boolean",
                  "default": false
                },
                "required": {
                  "description": "Empty cells count against the complete ratio.",
                  "type": "boolean",
                  "default": false
                },
                "minComplete": {
                  "description": "The lowest acceptable complete ratio, a fraction (0.95, not 95); below it the run exits 1.",
                  "type": ["number", "null"],
                  "minimum": 0,
                  "maximum": 1,
                  "default": null
                },
                "warnComplete": {
                  "description": "Below this complete ratio (from minComplete to 1) the summary and every report say WARN.",
                  "type": ["number", "null"],
                  "minimum": 0,
                  "maximum": 1,
                  "default": null
                },
                "maxDrop": {
                  "description": "Against a baseline report (--baseline), the most the complete ratio may fall since it; the spec's maxDrop when not given.",
                  "type": ["number", "null"],
                  "minimum": 0,
                  "maximum": 1,
                  "default": null
                },
                "check": {
                  "description": "What a value must pass, besides fitting a format, to be complete; one that fits but fails is invalid.",
                  "type": "string",
                  "enum": ["date", "luhn", "iban", "isbn", "gtin"]
                },
                "dateOrder": {
                  "description": "With check date: the order of day, month and year where the format does not put a 4-digit year first.",
                  "type": "string",
                  "enum": ["YMD", "MDY", "DMY"]
                },
                "luhnPrefix": {
                  "description": "With check luhn: digits counted in front of the value (80840 for a US NPI).",
                  "type": "string"
                },
                "maxInvalid": {
                  "description": "With a check or kind phone: the highest acceptable share of invalid cells; above it the run exits 1.",
                  "type": ["number", "null"],
                  "minimum": 0,
                  "maximum": 1,
                  "default": null
                },
                "normalizedColumn": {
                  "description": "With check date, iban or isbn: the canonical form's added column, <name>_normalized when left out; null for none.",
                  "$ref": "#/$defs/addedColumn"
                },
                "case": {
                  "description": "The case of letters in the formatted and extracted values.",
                  "type": "string",
                  "enum": ["keep", "upper", "lower"],
                  "default": "keep"
                },
                "ignore": {
                  "description": "Characters removed from a value before it is masked: never dropped, never lossy.",
                  "type": "string",
                  "default": ""
                },
                "significant": {
                  "description": "Characters whose loss makes a cell lossy, as a letter's or a digit's does (a sign, a decimal point).",
                  "type": "string",
                  "default": ""
                },
                "defaultRegion": {
                  "description": "kind phone: the region (ISO 3166-1 alpha-2, any case) of numbers written without a country code; null: such numbers are invalid.",
                  "type": ["string", "null"],
                  "default": null
                },
                "regionColumn": {
                  "description": "kind phone: an input column holding each record's region, which wins over defaultRegion; null for none.",
                  "type": ["string", "null"],
                  "minLength": 1,
                  "default": null
                },
                "countryColumn": {
                  "description": "kind phone: the detected region's added column, <name>_country when left out; null for none.",
                  "$ref": "#/$defs/addedColumn"
                },
                "phoneFormat": {
                  "description": "kind phone: the formatted column's form: international (+44 20 7946 0958), national (020 7946 0958) or e164 (+442079460958).",
                  "type": "string",
                  "enum": ["international", "national", "e164"],
                  "default": "international"
                },
                "formattedColumn": {
                  "description": "The formatted value's added column, <name>_formatted when left out; null for none.",
                  "$ref": "#/$defs/addedColumn"
                },
                "extractedColumn": {
                  "description": "The extracted value's added column, <name>_extracted when left out; null for none.",
                  "$ref": "#/$defs/addedColumn"
                },
                "statusColumn": {
                  "description": "The status's added column, <name>_status when left out; null for none.",
                  "$ref": "#/$defs/addedColumn"
                },
                "templateColumn": {
                  "description": "An added column with the formatted value and the rest of the mask; none when left out or null.",
                  "$ref": "#/$defs/addedColumn",
                  "default": null
                },
                "placeholderCharacter": {
                  "description": "Exactly one character: the template column's character for an unfilled slot.",
                  "type": "string",
                  "minLength": 1,
                  "default": "_"
                }
              },
              "required": ["name"],
              "dependentRequired": {
                "replaceIncomplete": ["replace"],
                "dateOrder": ["check"],
                "luhnPrefix": ["check"],
                "defaultRegion": ["kind"],
                "regionColumn": ["kind"],
                "countryColumn": ["kind"],
                "phoneFormat": ["kind"]
              },
              "if": { "required": ["kind"] },
              "then": {
                "properties": { "replace": { "enum": ["formatted", "extracted"] } },
                "not": {
                  "anyOf": [
                    { "required": ["format"] },
                    { "required": ["affineFormats"] },
                    { "required": ["affinityStrategy"] },
                    { "required": ["syntax"] },
                    { "required": ["autocomplete"] },
                    { "required": ["notations"] },
                    { "required": ["rightToLeft"] },
                    { "required": ["template"] },
                    { "required": ["symbols"] },
                    { "required": ["templateColumn"] },
                    { "required": ["placeholderCharacter"] },
                    { "required": ["check"] },
                    { "required": ["dateOrder"] },
                    { "required": ["luhnPrefix"] },
                    { "required": ["normalizedColumn"] },
                    { "required": ["case"] },
                    { "required": ["ignore"] },
                    { "required": ["significant"] }
                  ]
                }
              },
              "else": {
                "required": ["format"],
                "dependentRequired": { "maxInvalid": ["check"] }
              },
              "additionalProperties": false
            },
            "addedColumn": {
              "description": "The name of a column the run adds to every record, or null to leave it out.",
              "type": ["string", "null"],
              "minLength": 1
            },
            "notation": {
              "description": "A custom slot character for input-mask formats.",
              "type": "object",
              "properties": {
                "character": {
                  "description": "Exactly one character: the slot character used inside [].",
                  "type": "string",
                  "minLength": 1
                },
                "characterSet": {
                  "description": "The characters the slot accepts, listed literally (no ranges).",
                  "type": "string"
                },
                "isOptional": {
                  "description": "Whether the slot may be left unfilled.",
                  "type": "boolean",
                  "default": false
                }
              },
              "required": ["character", "characterSet"],
              "additionalProperties": false
            }
          }
        }

        """#
}
