/**
 * Canonical row JSON, owned once for every stage: the Jackson limits and factories rows are read and written with
 * ({@link io.tributary.topics.json.CanonicalJsonFactory}) and the compact text of a JSON tree with its string
 * escape rules ({@link io.tributary.topics.json.CanonicalJson}).
 */
package io.tributary.topics.json;
