package io.tributary.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;

class SqlErrorsTest {

    @ParameterizedTest
    @ValueSource(strings = {"08000", "08003", "08006", "08001", "08P01"})
    void connectionExceptionsAreRetriable(String state) {
        assertThat(SqlErrors.classify(new SQLException("lost", state))).isEqualTo(ErrorKind.RETRIABLE);
    }

    @Test
    void serializationFailureIsRetriable() {
        assertThat(SqlErrors.classify(new SQLException("conflict", "40001"))).isEqualTo(ErrorKind.RETRIABLE);
    }

    @Test
    void deadlockIsRetriable() {
        assertThat(SqlErrors.classify(new SQLException("deadlock", "40P01"))).isEqualTo(ErrorKind.RETRIABLE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"53000", "53100", "53200", "53300", "53400"})
    void insufficientResourcesAreRetriable(String state) {
        assertThat(SqlErrors.classify(new SQLException("resources", state))).isEqualTo(ErrorKind.RETRIABLE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"57P01", "57P02", "57P03"})
    void serverShutdownAndStartupAreRetriable(String state) {
        assertThat(SqlErrors.classify(new SQLException("shutdown", state))).isEqualTo(ErrorKind.RETRIABLE);
    }

    @Test
    void lockNotAvailableIsRetriable() {
        assertThat(SqlErrors.classify(new SQLException("nowait", "55P03"))).isEqualTo(ErrorKind.RETRIABLE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"28000", "28P01"})
    void authenticationFailureIsFatal(String state) {
        assertThat(SqlErrors.classify(new SQLException("auth", state))).isEqualTo(ErrorKind.FATAL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"42601", "42P01", "42703", "42501"})
    void syntaxUndefinedObjectsAndMissingPrivilegesAreFatal(String state) {
        assertThat(SqlErrors.classify(new SQLException("schema", state))).isEqualTo(ErrorKind.FATAL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"22003", "22P02", "22008"})
    void dataExceptionsAreFatal(String state) {
        assertThat(SqlErrors.classify(new SQLException("data", state))).isEqualTo(ErrorKind.FATAL);
    }

    @Test
    void unknownStateIsFatal() {
        assertThat(SqlErrors.classify(new SQLException("internal", "XX000"))).isEqualTo(ErrorKind.FATAL);
    }

    @Test
    void pgjdbcIoFailureWithoutStateIsRetriable() {
        SQLException e = new PSQLException("An I/O error occurred", (PSQLState) null, new EOFException());
        assertThat(SqlErrors.classify(e)).isEqualTo(ErrorKind.RETRIABLE);
    }

    @Test
    void pgjdbcConnectionFailureIsRetriable() {
        SQLException e = new PSQLException("I/O", PSQLState.CONNECTION_FAILURE, new SocketException("reset"));
        assertThat(SqlErrors.classify(e)).isEqualTo(ErrorKind.RETRIABLE);
    }

    @Test
    void stateOfAWrappedExceptionDecides() {
        SQLException wrapped = new SQLException("batch failed", null, new SQLException("deadlock", "40P01"));
        assertThat(SqlErrors.classify(wrapped)).isEqualTo(ErrorKind.RETRIABLE);
    }

    @Test
    void failureWithoutStateOrIoCauseIsFatal() {
        assertThat(SqlErrors.classify(new SQLException("something"))).isEqualTo(ErrorKind.FATAL);
    }

    @Test
    void constraintViolationIsFatal() {
        assertThat(SqlErrors.classify(new SQLException("x", "23505"))).isEqualTo(ErrorKind.FATAL);
    }

    @Test
    void socketErrorWithoutStateIsRetriable() {
        assertThat(SqlErrors.classify(new SQLException("io", null, new IOException("reset"))))
            .isEqualTo(ErrorKind.RETRIABLE);
    }

    @Test
    void recoverableOrTransientFailureWithoutStateIsRetriable() {
        assertThat(SqlErrors.classify(new SQLRecoverableException("connection closed")))
            .isEqualTo(ErrorKind.RETRIABLE);
        assertThat(SqlErrors.classify(new SQLTransientConnectionException("pool exhausted")))
            .isEqualTo(ErrorKind.RETRIABLE);
    }

    @Test
    void theFirstStateInTheCauseChainOfAnyFailureDecides() {
        SQLException outer = new SQLException("batch failed", null, new SQLException("inner", "40001"));
        assertThat(SqlErrors.classify(new RuntimeException(outer))).isEqualTo(ErrorKind.RETRIABLE);
    }

    @Test
    void unknownFailuresAreFatal() {
        assertThat(SqlErrors.classify(new IllegalStateException("bug"))).isEqualTo(ErrorKind.FATAL);
        assertThat(SqlErrors.isRetriable(new IllegalStateException("bug"))).isFalse();
    }
}
