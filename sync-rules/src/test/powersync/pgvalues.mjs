// Decoding of Postgres values from their text output as PowerSync's Postgres replicator decodes them (its pgwire
// type decoding for the built-in types, raw text for every other type), shared by the oracle scripts.
import { DateTimeValue, TimeValue, TimeValuePrecision, toSyncRulesRow } from '@powersync/service-sync-rules';
import { JsonContainer } from '@powersync/service-jsonbig';

const MICROS = Object.freeze({
  subSecondPrecision: TimeValuePrecision.microseconds,
  defaultSubSecondPrecision: TimeValuePrecision.microseconds
});

// Array type oid -> element type oid, for the element types Tributary supports in arrays.
const ARRAY_ELEMENTS = new Map([
  [1000, 16], [1001, 17], [1005, 21], [1007, 23], [1016, 20], [1028, 26], [1231, 1700], [1021, 700], [1022, 701],
  [1009, 25], [1015, 1043], [1014, 1042], [2951, 2950], [1182, 1082], [1183, 1083], [1115, 1114], [1185, 1184],
  [1187, 1186], [1270, 1266], [199, 114], [3807, 3802]
]);

const TIMESTAMP = /^([\d\-]+) ([\d:]+)(\.\d+)?([+-][\d:]+)?$/;

function timestamptz(source) {
  const match = TIMESTAMP.exec(source);
  if (match == null) {
    if (source == 'infinity') {
      return new DateTimeValue('9999-12-31T23:59:59Z', undefined, MICROS);
    } else if (source == '-infinity') {
      return new DateTimeValue('0000-01-01T00:00:00Z', undefined, MICROS);
    }
    return null;
  }
  const [, date, time, precision, zone] = match;
  const offset = zone.length == 3 ? `${zone}:00` : zone;
  const parsed = new Date(`${date}T${time}${offset}`);
  if (isNaN(parsed.getTime())) {
    return null;
  }
  const base = parsed.toISOString().replace('.000', '').replace('Z', '');
  return new DateTimeValue(`${base}${precision ?? ''}Z`, `${base.replace('T', ' ')}${precision ?? ''}Z`, MICROS);
}

function timestamp(source) {
  const match = TIMESTAMP.exec(source);
  if (match == null) {
    if (source == 'infinity') {
      return new DateTimeValue('9999-12-31T23:59:59', undefined, MICROS);
    } else if (source == '-infinity') {
      return new DateTimeValue('0000-01-01T00:00:00', undefined, MICROS);
    }
    return null;
  }
  const [, date, time, precision] = match;
  return new DateTimeValue(`${date}T${time}${precision?.padEnd(7, '0') ?? '.000000'}`, source, MICROS);
}

function date(source) {
  return source == 'infinity' ? '9999-12-31' : source == '-infinity' ? '0000-01-01' : source;
}

// A one-dimensional Postgres array literal: elements' texts, null for NULL.
function arrayElements(text) {
  const elements = [];
  let i = 1;
  if (text[i] == '}') {
    return elements;
  }
  while (i < text.length) {
    if (text[i] == '"') {
      let value = '';
      i++;
      while (text[i] != '"') {
        if (text[i] == '\\') {
          i++;
        }
        value += text[i++];
      }
      elements.push(value);
      i++;
    } else {
      let end = i;
      while (text[end] != ',' && text[end] != '}') {
        end++;
      }
      const raw = text.slice(i, end);
      elements.push(raw == 'NULL' ? null : raw);
      i = end;
    }
    i++; // ',' or '}'
  }
  return elements;
}

export function decode(text, oid) {
  if (text == null) {
    return null;
  }
  switch (oid) {
    case 25: case 2950: case 1043:
      return text;
    case 16:
      return text == 't';
    case 17:
      return Uint8Array.from(Buffer.from(text.slice(2), 'hex'));
    case 21: case 23: case 26: case 20:
      return BigInt(text);
    case 700: case 701:
      return Number(text);
    case 1082:
      return date(text);
    case 1114:
      return timestamp(text);
    case 1184:
      return timestamptz(text);
    case 1083:
      return TimeValue.parse(text, MICROS);
    case 114: case 3802:
      return new JsonContainer(text);
  }
  const element = ARRAY_ELEMENTS.get(oid);
  if (element != null) {
    return arrayElements(text).map((raw) => decode(raw, element));
  }
  return text;
}

// The sync rules row of one input row ({"columns": {"name": {"oid", "text"}}}), before the rules' row context.
export function syncRulesRow(input) {
  const record = {};
  for (const [name, column] of Object.entries(input.columns)) {
    record[name] = decode(column.text, column.oid);
  }
  return toSyncRulesRow(record);
}
