package io.tributary.syncrules;

import static io.tributary.syncrules.TestRows.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parameter queries with FROM that are invalid, or that PowerSync supports and Tributary does not, fail at parse
 * time with the line and column of the offending part and what to write instead.
 */
class TableParameterQueryErrorsTest {

    static Stream<Arguments> badQueries() {
        return Stream.of(
            Arguments.of("SELECT l.id AS list_id FROM lists AS l WHERE l.owner = request.user_id()",
                "l WHERE", "table aliases are not supported in parameter queries"),
            Arguments.of("SELECT id AS list_id FROM \"lists_%\" WHERE owner = request.user_id()",
                "\"lists_%\"", "the wildcard % is not supported in parameter queries"),
            Arguments.of("SELECT * FROM lists WHERE owner = request.user_id()",
                "*", "parameter queries cannot select *"),
            Arguments.of("SELECT id AS list_id FROM lists WHERE owner = request.user_id() OR public = true",
                "owner =", "both sides of OR must look up the same request values"),
            Arguments.of("SELECT id AS list_id FROM lists WHERE owner IN request.jwt() ->> 'owners' AND team IN "
                + "token_parameters.teams", "team IN", "a parameter query can expand only one request array"),
            Arguments.of("SELECT id AS list_id FROM lists WHERE request.user_id() IN owners AND "
                + "request.jwt() ->> 'team' IN teams", "request.jwt()", "can test only one array column"),
            Arguments.of("SELECT id AS list_id FROM lists WHERE owner NOT IN request.jwt() ->> 'owners'",
                "owner NOT", "NOT IN with a request value is not supported"),
            Arguments.of("SELECT id AS list_id FROM lists WHERE request.user_id() IN request.jwt() ->> 'admins'",
                "request.user_id() IN", "IN between two request values is a condition on the request alone"),
            Arguments.of("SELECT id AS list_id FROM lists WHERE 'x' IN request.jwt() ->> 'owners'",
                "'x'", "IN with a request value needs a column of the table on the other side"),
            Arguments.of("SELECT id AS list_id FROM lists WHERE owner > request.user_id()",
                "owner >", "a column can only be compared with a request value with ="),
            Arguments.of("SELECT id AS list_id FROM lists WHERE upper(owner) = request.user_id()",
                "upper", "unknown function upper"),
            Arguments.of("SELECT id AS list_id FROM lists WHERE owner = bucket.owner",
                "bucket.owner", "bucket.owner can only be used"),
            Arguments.of("SELECT id AS list_id, request.user_id() FROM lists WHERE owner = request.user_id()",
                "request.user_id() FROM", "a parameter needs a name: add AS <name>"),
            Arguments.of("SELECT id AS list_id, id + 1 AS n FROM lists WHERE owner = request.user_id()",
                "+", "unsupported SQL: operator '+' is not supported"),
            Arguments.of("SELECT id AS list_id FROM lists WHERE owner = request.secret()",
                "request.secret", "unknown function request.secret()"),
            Arguments.of("SELECT id AS list_id, owner AS list_id FROM lists WHERE owner = request.user_id()",
                "owner AS", "duplicate parameter 'list_id'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badQueries")
    void badParameterQueryIsRejectedAtItsPosition(String query, String at, String message) {
        String line = "    parameters: " + query;
        List<Problem> problems = problems("bucket_definitions:", "  by_list:", line, "    data:",
            "      - SELECT * FROM todos WHERE list_id = bucket.list_id");

        assertThat(problems).hasSize(1);
        assertThat(problems.get(0).line()).isEqualTo(3);
        assertThat(problems.get(0).column()).as(problems.get(0).message()).isEqualTo(line.indexOf(at) + 1);
        assertThat(problems.get(0).message()).contains(message);
    }

    @Test
    void everyParameterQueryOfADefinitionReturnsTheSameParameters() {
        String second = "SELECT id AS list_id, owner FROM lists WHERE owner = request.user_id()";
        String message = "returns (list_id, owner) but the first parameter query of 'by_list' returns (list_id)";
        String line = "      - " + second;
        List<Problem> problems = problems("bucket_definitions:", "  by_list:", "    parameters:",
            "      - SELECT request.user_id() AS list_id", line, "    data:",
            "      - SELECT * FROM todos WHERE list_id = bucket.list_id");

        assertThat(problems).hasSize(1);
        assertThat(problems.get(0).line()).isEqualTo(5);
        assertThat(problems.get(0).column()).isEqualTo(line.indexOf("SELECT") + 1);
        assertThat(problems.get(0).message()).contains(message);
    }

    private static List<Problem> problems(String... lines) {
        SyncRulesException e = catchThrowableOfType(SyncRulesException.class, () -> SyncRules.parse(yaml(lines)));
        assertThat(e).as("rules should be rejected").isNotNull();
        return e.problems();
    }
}
