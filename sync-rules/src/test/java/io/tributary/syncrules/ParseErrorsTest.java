package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Each class of bad rules fails at parse time with the line and column of the problem. */
class ParseErrorsTest {

    private static List<Problem> problems(String... lines) {
        SyncRulesException e = catchThrowableOfType(SyncRulesException.class, () -> SyncRules.parse(yaml(lines)));
        assertThat(e).as("rules should be rejected").isNotNull();
        return e.problems();
    }

    /** The 1-based column of {@code token} in {@code line}. */
    private static int column(String line, String token) {
        int index = line.indexOf(token);
        assertThat(index).as(token + " in " + line).isNotNegative();
        return index + 1;
    }

    private static Problem single(String... lines) {
        List<Problem> problems = problems(lines);
        assertThat(problems).hasSize(1);
        return problems.get(0);
    }

    @Test
    void yamlSyntaxErrorIsReportedAtItsPosition() {
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data: [SELECT * FROM t",
            "  other: x");

        assertThat(problem.message()).startsWith("YAML syntax error");
        assertThat(problem.line()).isEqualTo(4);
    }

    @Test
    void emptyDocumentIsRejected() {
        assertThat(single("").message()).contains("empty");
    }

    @Test
    void unknownTopLevelKeyIsRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data: [SELECT * FROM t]",
            "bucket_definition_typo: 1");

        assertThat(problem).isEqualTo(new Problem(4, 1,
            "unknown key 'bucket_definition_typo' (expected bucket_definitions or config)"));
    }

    @Test
    void editionOtherThanOneOrTwoIsRejectedAtItsValue() {
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data: [SELECT * FROM t]",
            "config:",
            "  edition: 3");

        assertThat(problem).isEqualTo(new Problem(5, 12, "edition must be 1 or 2"));
    }

    @Test
    void unknownConfigKeyIsRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data: [SELECT * FROM t]",
            "config:",
            "  timestamps: iso");

        assertThat(problem).isEqualTo(new Problem(5, 3, "unknown key 'timestamps' in config (expected edition)"));
    }

    @Test
    void unknownDefinitionKeyIsRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    accept_potentially_dangerous_queries: true",
            "    data: [SELECT * FROM t]");

        assertThat(problem.line()).isEqualTo(3);
        assertThat(problem.column()).isEqualTo(5);
        assertThat(problem.message()).contains("unknown key 'accept_potentially_dangerous_queries'");
    }

    @Test
    void duplicateDefinitionIsRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data: [SELECT * FROM t]",
            "  global:",
            "    data: [SELECT * FROM u]");

        assertThat(problem).isEqualTo(new Problem(4, 3, "duplicate key 'global' in bucket_definitions"));
    }

    @Test
    void definitionWithoutDataIsRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id");

        assertThat(problem).isEqualTo(new Problem(2, 3, "bucket definition 'by_user' has no data queries"));
    }

    @Test
    void dataThatIsNotAListIsRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data: SELECT * FROM t");

        assertThat(problem.line()).isEqualTo(3);
        assertThat(problem.message()).contains("must be a non-empty list of queries");
    }

    @Test
    void unknownFunctionIsReportedInsideTheSql() {
        String query = "    parameters: SELECT request.user_name() AS user_id";
        Problem problem = single(
            "bucket_definitions:",
            "  by_user:",
            query,
            "    data:",
            "      - SELECT * FROM todos WHERE owner_id = bucket.user_id");

        assertThat(problem.line()).isEqualTo(3);
        assertThat(problem.column()).isEqualTo(column(query, "request.user_name"));
        assertThat(problem.message()).startsWith("unknown function request.user_name()");
    }

    @Test
    void unknownFunctionInDataQueryIsRejected() {
        String query = "      - SELECT id, upper(title) AS title FROM todos";
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data:",
            query);

        assertThat(problem.line()).isEqualTo(4);
        assertThat(problem.column()).isEqualTo(column(query, "upper"));
        assertThat(problem.message()).startsWith("unknown function upper()");
    }

    @Test
    void unknownBucketParameterIsRejected() {
        String query = "      - SELECT * FROM todos WHERE owner_id = bucket.user_id AND org_id = bucket.org";
        Problem problem = single(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            query);

        assertThat(problem).isEqualTo(new Problem(5, column(query, "bucket.org"),
            "unknown bucket parameter bucket.org (bucket definition 'by_user': it declares user_id)"));
    }

    @Test
    void bucketParameterInGlobalDefinitionIsUnknown() {
        String query = "      - SELECT * FROM todos WHERE owner_id = bucket.user_id";
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data:",
            query);

        assertThat(problem.column()).isEqualTo(column(query, "bucket.user_id"));
        assertThat(problem.message()).contains("it has no parameters");
    }

    @Test
    void dataQueryThatDoesNotBindAParameterIsRejected() {
        String query = "      - SELECT * FROM todos WHERE archived = false";
        Problem problem = single(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            query);

        assertThat(problem.column()).isEqualTo(column(query, "WHERE"));
        assertThat(problem.message()).startsWith("data query does not bind bucket.user_id");
    }

    @Test
    void parameterBoundInOnlyOneOrBranchIsRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            "      - SELECT * FROM todos WHERE owner_id = bucket.user_id OR public = true");

        assertThat(problem.message()).startsWith("bucket.user_id is not bound in every branch of OR");
    }

    @Test
    void negatedBucketParameterIsRejected() {
        String query = "      - SELECT * FROM todos WHERE owner_id <> bucket.user_id";
        Problem problem = single(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            query);

        assertThat(problem.column()).isEqualTo(column(query, "owner_id"));
        assertThat(problem.message()).isEqualTo("bucket parameters can only be compared with = (found <>)");
    }

    @Test
    void bucketParameterUnderNotIsRejected() {
        String query = "      - SELECT * FROM todos WHERE NOT (owner_id = bucket.user_id)";
        Problem problem = single(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id() AS user_id",
            "    data:",
            query);

        assertThat(problem).isEqualTo(new Problem(5, column(query, "NOT"),
            "bucket parameters cannot be used under NOT"));
    }

    @Test
    void dataQueryWithoutIdIsRejected() {
        String query = "      - SELECT title, owner_id FROM todos";
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data:",
            query);

        assertThat(problem.column()).isEqualTo(column(query, "SELECT"));
        assertThat(problem.message()).startsWith("data query must output an id");
    }

    @Test
    void joinIsUnsupportedSql() {
        String query = "      - SELECT t.* FROM todos t JOIN lists l ON l.id = t.list_id";
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data:",
            query);

        assertThat(problem).isEqualTo(new Problem(4, column(query, "JOIN"), "unsupported SQL: JOIN is not supported"));
    }

    @Test
    void arithmeticIsUnsupportedSql() {
        String query = "      - SELECT * FROM todos WHERE n + 1 > 2";
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data:",
            query);

        assertThat(problem).isEqualTo(new Problem(4, column(query, "+"),
            "unsupported SQL: operator '+' is not supported"));
    }

    @Test
    void syntaxErrorInSqlIsReportedAtTheOffendingToken() {
        String query = "      - SELECT * FROM todos WHERE status = = 'x'";
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data:",
            query);

        assertThat(problem).isEqualTo(new Problem(4, column(query, "= '") , "expected an expression but found '='"));
    }

    @Test
    void unterminatedStringIsReportedAtItsStart() {
        String query = "      - \"SELECT * FROM todos WHERE status = 'x\"";
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data:",
            query);

        assertThat(problem).isEqualTo(new Problem(4, column(query, "'x"), "unterminated string literal"));
    }

    @Test
    void missingFromIsReportedAtTheEndOfTheQuery() {
        String query = "      - SELECT id WHERE";
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data:",
            query);

        assertThat(problem).isEqualTo(new Problem(4, query.length() + 1, "expected an expression but found "
            + "the end of the query"));
    }

    @Test
    void parameterWithoutNameIsRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  by_user:",
            "    parameters: SELECT request.user_id()",
            "    data:",
            "      - SELECT * FROM todos WHERE owner_id = bucket.user_id");

        assertThat(problem.message()).isEqualTo("a parameter needs a name: add AS <name>");
    }

    @Test
    void parameterQueriesReturningDifferentParametersAreRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  by_user:",
            "    parameters:",
            "      - SELECT request.user_id() AS user_id",
            "      - SELECT request.jwt() ->> 'org' AS org",
            "    data:",
            "      - SELECT * FROM todos WHERE owner_id = bucket.user_id");

        assertThat(problem.line()).isEqualTo(5);
        assertThat(problem.message()).contains("all must return the same parameters");
    }

    @Test
    void wildcardInColumnNameIsRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM todos WHERE name_% = 'x'");

        assertThat(problem.message()).contains("wildcard % is only allowed in table names");
    }

    @Test
    void requestFunctionInDataQueryIsRejected() {
        Problem problem = single(
            "bucket_definitions:",
            "  global:",
            "    data:",
            "      - SELECT * FROM todos WHERE owner_id = request.user_id()");

        assertThat(problem.message()).startsWith("request.user_id() is only available in parameter queries");
    }

    @Test
    void everyBadQueryIsReportedSortedByPosition() {
        SyncRulesException e = catchThrowableOfType(SyncRulesException.class, () -> SyncRules.parse(yaml(
            "bucket_definitions:",
            "  a:",
            "    data:",
            "      - SELECT title FROM todos",
            "      - SELECT * FROM todos WHERE x LIKE 'a%'",
            "  b:",
            "    parameters: SELECT foo() AS p",
            "    data:",
            "      - SELECT * FROM todos WHERE owner_id = bucket.p")));

        assertThat(e.problems()).extracting(Problem::line).containsExactly(4, 5, 7);
        assertThat(e.getMessage()).isEqualTo(
            "line 4, column 9: data query must output an id: select a column named id, *, or an expression AS id\n"
            + "line 5, column 37: unsupported SQL: LIKE is not supported\n"
            + "line 7, column 24: unknown function foo() (supported: request.user_id(), request.jwt() ->> "
            + "'claim', request.parameters() ->> 'name', token_parameters.<name>)");
    }
}
