package io.tributary.syncrules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/** Problems inside SQL point at the offending character in the YAML, whatever the scalar style. */
class ProblemPositionTest {

    private static final String HEADER = "bucket_definitions:\n  global:\n    data:\n";

    private static Problem problem(String dataItems) {
        SyncRulesException e = catchThrowableOfType(SyncRulesException.class,
            () -> SyncRules.parse(HEADER + dataItems));
        assertThat(e).isNotNull();
        assertThat(e.problems()).hasSize(1);
        return e.problems().get(0);
    }

    private static Problem at(int line, String lineText, String token) {
        int index = lineText.indexOf(token);
        assertThat(index).isNotNegative();
        return new Problem(line, lineText.codePointCount(0, index) + 1, "unknown function upper() "
            + "(data queries support no functions)");
    }

    @Test
    void plainScalar() {
        String line = "      - SELECT * FROM todos WHERE upper(x) = 'A'";

        assertThat(problem(line + "\n")).isEqualTo(at(4, line, "upper"));
    }

    @Test
    void singleQuotedScalarWithDoubledQuotes() {
        String line = "      - 'SELECT * FROM todos WHERE s = ''it''''s'' AND upper(x) = 1'";

        assertThat(problem(line + "\n")).isEqualTo(at(4, line, "upper"));
    }

    @Test
    void doubleQuotedScalarWithEscapes() {
        String line = "      - \"SELECT * FROM todos WHERE \\\"Col\\\" = '\\t\\u00e9' AND upper(x) = 1\"";

        assertThat(problem(line + "\n")).isEqualTo(at(4, line, "upper"));
    }

    @Test
    void literalBlockScalar() {
        String last = "        WHERE archived = false AND upper(x) = 1";

        assertThat(problem("      - |\n        SELECT *\n          FROM todos\n" + last + "\n"))
            .isEqualTo(at(7, last, "upper"));
    }

    @Test
    void foldedBlockScalar() {
        String last = "        WHERE upper(x) = 1";

        assertThat(problem("      - >-\n        SELECT *\n\n        FROM todos\n" + last + "\n"))
            .isEqualTo(at(8, last, "upper"));
    }

    @Test
    void multiLinePlainScalar() {
        String last = "        WHERE upper(x) = 1";

        assertThat(problem("      - SELECT * FROM todos\n" + last + "\n")).isEqualTo(at(5, last, "upper"));
    }

    @Test
    void multiLineDoubleQuotedScalar() {
        String last = "        WHERE \\\"a\\\" = 1 AND upper(x) = 1\"";

        assertThat(problem("      - \"SELECT * FROM todos\n" + last + "\n")).isEqualTo(at(5, last, "upper"));
    }

    @Test
    void windowsLineEndings() {
        String last = "        WHERE upper(x) = 1";
        String yaml = (HEADER + "      - |\n        SELECT *\n        FROM todos\n" + last + "\n")
            .replace("\n", "\r\n");

        SyncRulesException e = catchThrowableOfType(SyncRulesException.class, () -> SyncRules.parse(yaml));

        assertThat(e.problems()).containsExactly(at(7, last, "upper"));
    }

    @Test
    void columnsCountCodePoints() {
        String line = "      - SELECT '\uD83D\uDE00' AS e, upper(x) AS id FROM todos";

        assertThat(problem(line + "\n")).isEqualTo(at(4, line, "upper"));
    }

    @Test
    void endOfQueryInBlockScalarIsJustAfterTheLastToken() {
        String last = "        FROM todos WHERE";

        Problem problem = problem("      - |\n        SELECT *\n" + last + "\n\n");

        assertThat(problem).isEqualTo(new Problem(6, last.length() + 1,
            "expected an expression but found the end of the query"));
    }

    @Test
    void taggedScalar() {
        String line = "      - !!str SELECT * FROM todos WHERE upper(x) = 1";

        assertThat(problem(line + "\n")).isEqualTo(at(4, line, "upper"));
    }
}
