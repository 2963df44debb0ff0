/**
 * The Neo4j 5 built-ins and APOC functions and aggregations added for the catalogue: each
 * with a real result through a query and a bad argument that fails with a typed error.
 * A coverage check keeps the table in step with the registry modules.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { toJs } from '../../runtime/format.js';
import { GraphDbError } from '../../src/errors.js';
import { neo4j5Functions, syntaxFunctionListing } from '../../functions/neo4j5.js';
import { apocCollFunctions } from '../../functions/apoc/coll.js';
import { apocMapFunctions } from '../../functions/apoc/map.js';
import { apocTextFunctions } from '../../functions/apoc/text.js';
import { apocConvertFunctions } from '../../functions/apoc/convert.js';
import { apocDateFunctions } from '../../functions/apoc/date.js';
import { apocAggregates } from '../../functions/apoc/agg.js';

/** [function, query returning one value, expected value (or a check), query with a bad argument, expected error message]. */
type Case = [string, string, unknown, string, RegExp];

const TYPE = /expects|must be|not a|argument/i;

const cases: Case[] = [
  // ---- Neo4j 5 built-ins
  ['nullIf', 'RETURN nullIf(1, 1)', null, 'RETURN nullIf(1)', /argument/],
  ['valueType', "RETURN [valueType(1), valueType('a'), valueType([1, 2]), valueType(null)]", ['INTEGER NOT NULL', 'STRING NOT NULL', 'LIST<INTEGER NOT NULL> NOT NULL', 'NULL'], 'RETURN valueType()', /argument/],
  ['linenumber', 'RETURN linenumber()', null, 'RETURN linenumber(1)', /argument/],
  ['file', 'RETURN file()', null, 'RETURN file(1)', /argument/],
  ['db.nameFromElementId', "CREATE (n) RETURN [db.nameFromElementId(elementId(n)), db.nameFromElementId('junk')]", ['neo4j', null], 'RETURN db.nameFromElementId(1)', TYPE],
  ['all', 'RETURN all(x IN [1, 2] WHERE x > 0)', true, 'RETURN all(x IN 5 WHERE x > 0)', /list/],
  ['any', 'RETURN any(x IN [1, 2] WHERE x > 1)', true, 'RETURN any(x IN 5 WHERE x > 1)', /list/],
  ['none', 'RETURN none(x IN [1, 2] WHERE x > 2)', true, "RETURN none(x IN 'ab' WHERE x > 2)", /list/],
  ['single', 'RETURN single(x IN [1, 2] WHERE x > 1)', true, 'RETURN single(x IN {a: 1} WHERE x > 1)', /list/],
  ['reduce', 'RETURN reduce(s = 0, x IN [1, 2, 3] | s + x)', 6, 'RETURN reduce(s = 0, x IN 3 | s + x)', /list/],
  // ---- apoc.coll
  ['apoc.coll.sum', 'RETURN apoc.coll.sum([1, 2, 3.5])', 6.5, "RETURN apoc.coll.sum(['a'])", TYPE],
  ['apoc.coll.sumLongs', 'RETURN apoc.coll.sumLongs([1, 2, 3.9])', 6, "RETURN apoc.coll.sumLongs([true])", TYPE],
  ['apoc.coll.avg', 'RETURN apoc.coll.avg([1, 2, 3, 4])', 2.5, "RETURN apoc.coll.avg('1,2')", TYPE],
  ['apoc.coll.min', "RETURN apoc.coll.min([3, 1, null, 2])", 1, 'RETURN apoc.coll.min(3)', TYPE],
  ['apoc.coll.max', "RETURN apoc.coll.max([3, 1, 2])", 3, 'RETURN apoc.coll.max({a: 1})', TYPE],
  ['apoc.coll.toSet', 'RETURN apoc.coll.toSet([1, 2, 1, 1.0, 3])', [1, 2, 3], "RETURN apoc.coll.toSet('abc')", TYPE],
  ['apoc.coll.sort', "RETURN apoc.coll.sort([3, 1, 2])", [1, 2, 3], 'RETURN apoc.coll.sort(1)', TYPE],
  ['apoc.coll.sortNodes', "CREATE (a {n: 1}), (b {n: 2}) RETURN [x IN apoc.coll.sortNodes([a, b], 'n') | x.n]", [2, 1], "CREATE (a) RETURN apoc.coll.sortNodes([a], 3)", TYPE],
  ['apoc.coll.sortMaps', "RETURN [m IN apoc.coll.sortMaps([{n: 2}, {n: 1}], '^n') | m.n]", [1, 2], "RETURN apoc.coll.sortMaps([{n: 1}], true)", TYPE],
  ['apoc.coll.flatten', 'RETURN apoc.coll.flatten([[1, [2]], 3], true)', [1, 2, 3], 'RETURN apoc.coll.flatten(7)', TYPE],
  ['apoc.coll.union', 'RETURN apoc.coll.union([1, 2], [2, 3])', [1, 2, 3], 'RETURN apoc.coll.union([1], 2)', TYPE],
  ['apoc.coll.unionAll', 'RETURN apoc.coll.unionAll([1, 2], [2])', [1, 2, 2], "RETURN apoc.coll.unionAll('a', [2])", TYPE],
  ['apoc.coll.intersection', 'RETURN apoc.coll.intersection([1, 2, 3], [3, 2, 5])', [2, 3], 'RETURN apoc.coll.intersection([1], {})', TYPE],
  ['apoc.coll.subtract', 'RETURN apoc.coll.subtract([1, 2, 3, 2], [2])', [1, 3], 'RETURN apoc.coll.subtract(1, [2])', TYPE],
  ['apoc.coll.disjunction', 'RETURN apoc.coll.disjunction([1, 2], [2, 3])', [1, 3], 'RETURN apoc.coll.disjunction([1], true)', TYPE],
  ['apoc.coll.contains', 'RETURN apoc.coll.contains([1, 2], 2.0)', true, 'RETURN apoc.coll.contains(5, 2)', TYPE],
  ['apoc.coll.containsAll', 'RETURN apoc.coll.containsAll([1, 2, 3], [3, 1])', true, 'RETURN apoc.coll.containsAll([1], 1)', TYPE],
  ['apoc.coll.isEqualCollection', 'RETURN apoc.coll.isEqualCollection([1, 2, 2], [2, 1, 2])', true, "RETURN apoc.coll.isEqualCollection([1], 'x')", TYPE],
  ['apoc.coll.indexOf', "RETURN apoc.coll.indexOf(['a', 'b'], 'b')", 1, "RETURN apoc.coll.indexOf('ab', 'b')", TYPE],
  ['apoc.coll.zip', 'RETURN apoc.coll.zip([1, 2], [3])', [[1, 3], [2, null]], 'RETURN apoc.coll.zip([1], 3)', TYPE],
  ['apoc.coll.pairs', 'RETURN apoc.coll.pairs([1, 2, 3])', [[1, 2], [2, 3], [3, null]], 'RETURN apoc.coll.pairs(1)', TYPE],
  ['apoc.coll.pairsMin', 'RETURN apoc.coll.pairsMin([1, 2, 3])', [[1, 2], [2, 3]], 'RETURN apoc.coll.pairsMin(1)', TYPE],
  ['apoc.coll.partition', 'RETURN apoc.coll.partition([1, 2, 3, 4, 5], 2)', [[1, 2], [3, 4], [5]], 'RETURN apoc.coll.partition([1, 2], 0)', /positive/],
  ['apoc.coll.frequencies', "RETURN apoc.coll.frequencies(['a', 'b', 'a'])", [{ item: 'a', count: 2 }, { item: 'b', count: 1 }], 'RETURN apoc.coll.frequencies(3)', TYPE],
  ['apoc.coll.occurrences', 'RETURN apoc.coll.occurrences([1, 2, 1], 1)', 2, 'RETURN apoc.coll.occurrences(1, 1)', TYPE],
  ['apoc.coll.duplicates', 'RETURN apoc.coll.duplicates([1, 2, 1, 3, 2, 1])', [1, 2], "RETURN apoc.coll.duplicates('aa')", TYPE],
  ['apoc.coll.remove', 'RETURN apoc.coll.remove([1, 2, 3, 4], 1, 2)', [1, 4], 'RETURN apoc.coll.remove([1, 2], -1)', /non-negative/],
  ['apoc.coll.insert', "RETURN apoc.coll.insert([1, 3], 1, 2)", [1, 2, 3], "RETURN apoc.coll.insert([1], 'x', 2)", TYPE],
  ['apoc.coll.set', 'RETURN apoc.coll.set([1, 2, 3], 1, 9)', [1, 9, 3], 'RETURN apoc.coll.set([1], 1.5, 2)', TYPE],
  ['apoc.coll.fill', "RETURN apoc.coll.fill('x', 3)", ['x', 'x', 'x'], "RETURN apoc.coll.fill('x', -1)", /non-negative/],
  ['apoc.coll.dropDuplicateNeighbors', 'RETURN apoc.coll.dropDuplicateNeighbors([1, 1, 2, 1])', [1, 2, 1], 'RETURN apoc.coll.dropDuplicateNeighbors(1)', TYPE],
  ['apoc.coll.different', 'RETURN [apoc.coll.different([1, 2]), apoc.coll.different([1, 1])]', [true, false], 'RETURN apoc.coll.different(1)', TYPE],
  ['apoc.coll.slice', 'RETURN apoc.coll.slice([1, 2, 3, 4], 1, 2)', [2, 3], "RETURN apoc.coll.slice([1], 'a')", TYPE],
  ['apoc.coll.combinations', 'RETURN apoc.coll.combinations([1, 2, 3], 2)', [[1, 2], [1, 3], [2, 3]], 'RETURN apoc.coll.combinations(range(1, 21), 2)', /at most 20/],
  // ---- apoc.map
  ['apoc.map.merge', 'RETURN apoc.map.merge({a: 1, b: 1}, {b: 2})', { a: 1, b: 2 }, 'RETURN apoc.map.merge({a: 1}, 2)', TYPE],
  ['apoc.map.mergeList', 'RETURN apoc.map.mergeList([{a: 1}, {a: 2, b: 3}])', { a: 2, b: 3 }, 'RETURN apoc.map.mergeList([1])', TYPE],
  ['apoc.map.fromPairs', "RETURN apoc.map.fromPairs([['a', 1], ['b', 2]])", { a: 1, b: 2 }, "RETURN apoc.map.fromPairs([['a']])", /pair/],
  ['apoc.map.fromLists', "RETURN apoc.map.fromLists(['a', 'b'], [1, 2])", { a: 1, b: 2 }, "RETURN apoc.map.fromLists(['a', 'b'], [1])", /as long as/],
  ['apoc.map.fromValues', "RETURN apoc.map.fromValues(['a', 1, 'b', 2])", { a: 1, b: 2 }, 'RETURN apoc.map.fromValues([1, 2])', TYPE],
  ['apoc.map.setKey', "RETURN apoc.map.setKey({a: 1}, 'b', 2)", { a: 1, b: 2 }, 'RETURN apoc.map.setKey({a: 1}, 3, 2)', TYPE],
  ['apoc.map.setEntry', "RETURN apoc.map.setEntry({a: 1}, 'a', 5)", { a: 5 }, 'RETURN apoc.map.setEntry(1, "a", 5)', TYPE],
  ['apoc.map.setPairs', "RETURN apoc.map.setPairs({a: 1}, [['b', 2]])", { a: 1, b: 2 }, "RETURN apoc.map.setPairs({a: 1}, 'b')", TYPE],
  ['apoc.map.removeKey', "RETURN apoc.map.removeKey({a: 1, b: 2}, 'a')", { b: 2 }, 'RETURN apoc.map.removeKey({a: 1}, 1)', TYPE],
  ['apoc.map.removeKeys', "RETURN apoc.map.removeKeys({a: 1, b: 2, c: 3}, ['a', 'c'])", { b: 2 }, "RETURN apoc.map.removeKeys({a: 1}, 'a')", TYPE],
  ['apoc.map.clean', "RETURN apoc.map.clean({a: 1, b: '', c: null, d: 4}, ['d'], [''])", { a: 1 }, "RETURN apoc.map.clean({a: 1}, 'd', [])", TYPE],
  ['apoc.map.get', "RETURN [apoc.map.get({a: 1}, 'a'), apoc.map.get({a: 1}, 'z', 0)]", [1, 0], "RETURN apoc.map.get({a: 1}, 'z')", /key of the map/],
  ['apoc.map.submap', "RETURN apoc.map.submap({a: 1, b: 2, c: 3}, ['a', 'c'])", { a: 1, c: 3 }, "RETURN apoc.map.submap({a: 1}, ['z'])", /key of the map/],
  ['apoc.map.values', "RETURN apoc.map.values({a: 1, b: 2}, ['b', 'a'])", [2, 1], "RETURN apoc.map.values({a: 1}, 'a')", TYPE],
  ['apoc.map.groupBy', "RETURN apoc.map.groupBy([{id: 'x', v: 1}, {id: 'y', v: 2}], 'id').y.v", 2, "RETURN apoc.map.groupBy([1], 'id')", TYPE],
  ['apoc.map.flatten', 'RETURN apoc.map.flatten({a: {b: 1, c: {d: 2}}})', { 'a.b': 1, 'a.c.d': 2 }, 'RETURN apoc.map.flatten([1])', TYPE],
  // ---- apoc.text
  ['apoc.text.join', "RETURN apoc.text.join(['a', 'b'], '-')", 'a-b', "RETURN apoc.text.join(['a', 1], '-')", TYPE],
  ['apoc.text.split', "RETURN apoc.text.split('a1b22c', '[0-9]+')", ['a', 'b', 'c'], "RETURN apoc.text.split('abc', '(')", /regular expression/],
  ['apoc.text.replace', "RETURN apoc.text.replace('a1b2', '[0-9]', '#')", 'a#b#', "RETURN apoc.text.replace('abc', '[', '')", /regular expression/],
  ['apoc.text.regreplace', "RETURN apoc.text.regreplace('aaa', 'a+', 'b')", 'b', "RETURN apoc.text.regreplace('abc', 'a', 1)", TYPE],
  ['apoc.text.regexGroups', "RETURN apoc.text.regexGroups('k1=v1 k2=v2', '(\\\\w+)=(\\\\w+)')", [['k1=v1', 'k1', 'v1'], ['k2=v2', 'k2', 'v2']], "RETURN apoc.text.regexGroups('x', '*')", /regular expression/],
  ['apoc.text.capitalize', "RETURN apoc.text.capitalize('hello world')", 'Hello world', 'RETURN apoc.text.capitalize(1)', TYPE],
  ['apoc.text.capitalizeAll', "RETURN apoc.text.capitalizeAll('hello world')", 'Hello World', 'RETURN apoc.text.capitalizeAll([1])', TYPE],
  ['apoc.text.decapitalize', "RETURN apoc.text.decapitalize('Hello')", 'hello', 'RETURN apoc.text.decapitalize(true)', TYPE],
  ['apoc.text.camelCase', "RETURN apoc.text.camelCase('FOO_bar baz')", 'fooBarBaz', 'RETURN apoc.text.camelCase(1)', TYPE],
  ['apoc.text.upperCamelCase', "RETURN apoc.text.upperCamelCase('foo bar')", 'FooBar', 'RETURN apoc.text.upperCamelCase(1)', TYPE],
  ['apoc.text.snakeCase', "RETURN apoc.text.snakeCase('fooBar Baz')", 'foo_bar_baz', 'RETURN apoc.text.snakeCase(1)', TYPE],
  ['apoc.text.toUpperCase', "RETURN apoc.text.toUpperCase('fooBar baz')", 'FOO_BAR_BAZ', 'RETURN apoc.text.toUpperCase(1)', TYPE],
  ['apoc.text.slug', "RETURN apoc.text.slug('Hello, World!')", 'Hello-World', "RETURN apoc.text.slug('a b', 1)", TYPE],
  ['apoc.text.clean', "RETURN apoc.text.clean('Héllo, Wörld!')", 'helloworld', 'RETURN apoc.text.clean(1)', TYPE],
  ['apoc.text.compareCleaned', "RETURN apoc.text.compareCleaned('Hello!', 'hello')", true, "RETURN apoc.text.compareCleaned('a', 1)", TYPE],
  ['apoc.text.lpad', "RETURN apoc.text.lpad('7', 3, '0')", '007', "RETURN apoc.text.lpad('7', -3)", /non-negative/],
  ['apoc.text.rpad', "RETURN apoc.text.rpad('ab', 4)", 'ab  ', "RETURN apoc.text.rpad('ab', 'x')", TYPE],
  ['apoc.text.format', "RETURN apoc.text.format('%s is %d (%.2f)', ['x', 3, 1.5])", 'x is 3 (1.50)', "RETURN apoc.text.format('%s', 'x')", TYPE],
  ['apoc.text.levenshteinDistance', "RETURN apoc.text.levenshteinDistance('kitten', 'sitting')", 3, "RETURN apoc.text.levenshteinDistance('a', 1)", TYPE],
  ['apoc.text.distance', "RETURN apoc.text.distance('flaw', 'lawn')", 2, 'RETURN apoc.text.distance(1, 2)', TYPE],
  ['apoc.text.levenshteinSimilarity', "RETURN apoc.text.levenshteinSimilarity('abcd', 'abce')", 0.75, "RETURN apoc.text.levenshteinSimilarity('a', [])", TYPE],
  ['apoc.text.jaroWinklerDistance', "RETURN round(apoc.text.jaroWinklerDistance('MARTHA', 'MARHTA'), 4)", 0.9611, "RETURN apoc.text.jaroWinklerDistance('a', 2)", TYPE],
  ['apoc.text.hammingDistance', "RETURN apoc.text.hammingDistance('karolin', 'kathrin')", 3, "RETURN apoc.text.hammingDistance('ab', 'abc')", /same length/],
  ['apoc.text.sorensenDiceSimilarity', "RETURN apoc.text.sorensenDiceSimilarity('night', 'nacht')", 0.25, "RETURN apoc.text.sorensenDiceSimilarity(1, 'a')", TYPE],
  ['apoc.text.fuzzyMatch', "RETURN [apoc.text.fuzzyMatch('Stephen', 'Steven'), apoc.text.fuzzyMatch('ab', 'ac')]", [true, false], "RETURN apoc.text.fuzzyMatch('a', 1)", TYPE],
  ['apoc.text.indexOf', "RETURN apoc.text.indexOf('hello', 'l', 3)", 3, "RETURN apoc.text.indexOf('hello', 'l', 'x')", TYPE],
  ['apoc.text.repeat', "RETURN apoc.text.repeat('ab', 3)", 'ababab', "RETURN apoc.text.repeat('ab', -1)", /non-negative/],
  ['apoc.text.urlencode', "RETURN apoc.text.urlencode('a b&c')", 'a%20b%26c', 'RETURN apoc.text.urlencode(1)', TYPE],
  ['apoc.text.urldecode', "RETURN apoc.text.urldecode('a%20b')", 'a b', "RETURN apoc.text.urldecode('%E0%A4%A')", /malformed/],
  ['apoc.text.base64Encode', "RETURN apoc.text.base64Encode('héllo')", 'aMOpbGxv', 'RETURN apoc.text.base64Encode(1)', TYPE],
  ['apoc.text.base64Decode', "RETURN apoc.text.base64Decode('aMOpbGxv')", 'héllo', "RETURN apoc.text.base64Decode('***')", /not Base64/],
  ['apoc.text.byteCount', "RETURN apoc.text.byteCount('héllo')", 6, 'RETURN apoc.text.byteCount(5)', TYPE],
  ['apoc.text.code', 'RETURN apoc.text.code(65)', 'A', 'RETURN apoc.text.code(1114112)', /code point/],
  ['apoc.text.charAt', "RETURN apoc.text.charAt('ABC', 1)", 66, "RETURN apoc.text.charAt('ABC', 'x')", TYPE],
  // ---- apoc.convert, apoc.util
  ['apoc.convert.toJson', "RETURN apoc.convert.toJson({a: [1, 2.5, 'x'], b: null})", '{"a":[1,2.5,"x"],"b":null}', 'RETURN apoc.convert.toJson()', /argument/],
  ['apoc.convert.fromJsonMap', "RETURN apoc.convert.fromJsonMap('{\"a\": {\"b\": 2}}', '$.a')", { b: 2 }, "RETURN apoc.convert.fromJsonMap('[1]')", /object/],
  ['apoc.convert.fromJsonList', "RETURN apoc.convert.fromJsonList('[1, [2]]')", [1, [2]], "RETURN apoc.convert.fromJsonList('{bad')", /not valid JSON/],
  ['apoc.convert.toMap', "CREATE (n {k: 1}) RETURN apoc.convert.toMap(n)", { k: 1 }, 'RETURN apoc.convert.toMap(1)', TYPE],
  ['apoc.convert.toList', 'RETURN [apoc.convert.toList(1), apoc.convert.toList([2])]', [[1], [2]], 'RETURN apoc.convert.toList()', /argument/],
  ['apoc.convert.toSet', 'RETURN apoc.convert.toSet([1, 1, 2])', [1, 2], "RETURN apoc.convert.toSet('ab')", TYPE],
  ['apoc.convert.toBoolean', "RETURN [apoc.convert.toBoolean('yes'), apoc.convert.toBoolean(0), apoc.convert.toBoolean('maybe')]", [true, false, null], 'RETURN apoc.convert.toBoolean(1, 2)', /argument/],
  ['apoc.convert.toInteger', "RETURN [apoc.convert.toInteger('42'), apoc.convert.toInteger(3.9), apoc.convert.toInteger('x')]", [42, 3, null], 'RETURN apoc.convert.toInteger()', /argument/],
  ['apoc.convert.toFloat', "RETURN [apoc.convert.toFloat('1.5'), apoc.convert.toFloat('x')]", [1.5, null], 'RETURN apoc.convert.toFloat()', /argument/],
  ['apoc.util.md5', "RETURN apoc.util.md5(['a', 'b'])", '187ef4436122d1cc2f40dc2b92f0eba0', "RETURN apoc.util.md5('ab')", TYPE],
  ['apoc.util.sha1', "RETURN apoc.util.sha1(['abc'])", 'a9993e364706816aba3e25717850c26c9cd0d89d', 'RETURN apoc.util.sha1(1)', TYPE],
  ['apoc.util.sha256', "RETURN apoc.util.sha256(['abc'])", 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'RETURN apoc.util.sha256(true)', TYPE],
  ['apoc.util.sha384', "RETURN substring(apoc.util.sha384(['abc']), 0, 16)", 'cb00753f45a35e8b', 'RETURN apoc.util.sha384({})', TYPE],
  ['apoc.util.sha512', "RETURN substring(apoc.util.sha512(['abc']), 0, 16)", 'ddaf35a193617aba', 'RETURN apoc.util.sha512(1.5)', TYPE],
  ['apoc.util.validatePredicate', "RETURN apoc.util.validatePredicate(false, 'never', [])", true, "RETURN apoc.util.validatePredicate(true, 'bad value %s', ['x'])", /bad value x/],
  // ---- apoc.date
  ['apoc.date.format', "RETURN apoc.date.format(86400, 's', \"yyyy-MM-dd'T'HH:mm:ssXXX\", '+02:00')", '1970-01-02T02:00:00+02:00', "RETURN apoc.date.format(0, 'weeks')", /time unit/],
  ['apoc.date.parse', "RETURN apoc.date.parse('2020/01/02 10:00', 's', 'yyyy/MM/dd HH:mm', 'Europe/Oslo')", 1577955600, "RETURN apoc.date.parse('2020-01-02', 'ms', 'dd.MM.yyyy')", /cannot read/],
  ['apoc.date.currentTimestamp', 'RETURN apoc.date.currentTimestamp() > 1700000000000', true, 'RETURN apoc.date.currentTimestamp(1)', /argument/],
  ['apoc.date.convert', "RETURN apoc.date.convert(7200, 's', 'h')", 2, "RETURN apoc.date.convert(1, 's', 'fortnights')", /time unit/],
  ['apoc.date.add', "RETURN apoc.date.add(1000, 'ms', 2, 's')", 3000, "RETURN apoc.date.add(1000, 'ms', 'two', 's')", TYPE],
  ['apoc.date.systemTimezone', 'RETURN size(apoc.date.systemTimezone()) > 0', true, 'RETURN apoc.date.systemTimezone(1)', /argument/],
  // ---- apoc.agg
  ['apoc.agg.first', 'UNWIND [null, 2, 3] AS x RETURN apoc.agg.first(x)', 2, 'RETURN apoc.agg.first()', /argument/],
  ['apoc.agg.last', 'UNWIND [1, 2, null] AS x RETURN apoc.agg.last(x)', 2, 'RETURN apoc.agg.last(1, 2)', /argument/],
  ['apoc.agg.nth', 'UNWIND [1, 2, 3] AS x RETURN [apoc.agg.nth(x, 1), apoc.agg.nth(x, -1)]', [2, 3], "UNWIND [1] AS x RETURN apoc.agg.nth(x, 'a')", TYPE],
  ['apoc.agg.median', 'UNWIND [4, 1, 3, 2] AS x RETURN apoc.agg.median(x)', 2.5, "UNWIND ['a'] AS x RETURN apoc.agg.median(x)", TYPE],
  ['apoc.agg.percentiles', 'UNWIND range(1, 10) AS x RETURN apoc.agg.percentiles(x, [0.5, 0.9])', [5, 9], 'UNWIND [1] AS x RETURN apoc.agg.percentiles(x, [2])', /between 0.0 and 1.0/],
  ['apoc.agg.statistics', 'UNWIND [1, 2, 3] AS x WITH apoc.agg.statistics(x, [0.5]) AS s RETURN [s.total, s.min, s.max, s.mean, s.`0.5`]', [3, 1, 3, 2, 2], "UNWIND ['a'] AS x RETURN apoc.agg.statistics(x)", TYPE],
  ['apoc.agg.product', 'UNWIND [2, 3, 4] AS x RETURN apoc.agg.product(x)', 24, "UNWIND ['a'] AS x RETURN apoc.agg.product(x)", TYPE],
  ['apoc.agg.slice', 'UNWIND [1, 2, 3, 4] AS x RETURN apoc.agg.slice(x, 1, 2)', [2, 3], "UNWIND [1] AS x RETURN apoc.agg.slice(x, 'a')", TYPE],
  ['apoc.agg.maxItems', "UNWIND [['a', 1], ['b', 3], ['c', 3]] AS p RETURN apoc.agg.maxItems(p[0], p[1])", { items: ['b', 'c'], value: 3 }, "UNWIND [1] AS x RETURN apoc.agg.maxItems(x, x, 'two')", TYPE],
  ['apoc.agg.minItems', "UNWIND [['a', 1], ['b', 3]] AS p RETURN apoc.agg.minItems(p[0], p[1])", { items: ['a'], value: 1 }, 'UNWIND [1] AS x RETURN apoc.agg.minItems(x)', /argument/],
];

function run(db: Database, q: string): unknown {
  const r = db.executeSync(q);
  expect(r.records).toHaveLength(1);
  return toJs(r.records[0][0]);
}

describe('catalogue functions', () => {
  const db = Database.openInMemory();
  it.each(cases)('%s: a result and a bad argument', (_name, query, expected, bad, error) => {
    expect(run(db, query)).toEqual(expected);
    let caught: unknown;
    try {
      db.executeSync(bad);
    } catch (err) {
      caught = err;
    }
    expect(caught, bad).toBeInstanceOf(GraphDbError);
    expect((caught as Error).message).toMatch(error);
  });

  it('covers every function the catalogue modules define', () => {
    const defined = [
      ...neo4j5Functions,
      ...syntaxFunctionListing,
      ...apocCollFunctions,
      ...apocMapFunctions,
      ...apocTextFunctions,
      ...apocConvertFunctions,
      ...apocDateFunctions,
      ...apocAggregates,
    ].map((f) => f.name);
    expect(cases.map((c) => c[0]).sort()).toEqual(defined.sort());
  });

  it('SHOW FUNCTIONS lists the syntax forms and the APOC aggregations', () => {
    const names = db.executeSync('SHOW FUNCTIONS').records.map((r) => r[0]);
    for (const n of ['all', 'any', 'none', 'single', 'reduce', 'apoc.agg.median', 'nullIf']) expect(names).toContain(n);
    expect(names.length).toBeGreaterThanOrEqual(200);
  });
});
