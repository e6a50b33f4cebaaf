package io.floe.adapters.rest.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.DatabaseUnavailableException;
import io.floe.application.port.out.RefusedLocationException;
import io.floe.application.port.out.StorageException;
import io.floe.application.port.out.StorageRefusedException;
import io.floe.application.port.out.TransactionOutcomeUnknownException;
import io.floe.domain.InvalidNameException;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import java.sql.SQLTransientConnectionException;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.eclipse.jetty.http.BadMessageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one mapping from what went wrong to what an Iceberg client is told. */
class IcebergErrorsTest {
  private static final String REQUEST = "req-7";

  static Stream<Arguments> clientErrors() {
    return Stream.of(
        Arguments.of(new NotAuthorizedException("no token"), 401, "NotAuthorizedException"),
        Arguments.of(new ForbiddenException("not yours"), 403, "ForbiddenException"),
        // Every refusal reads the same to a client, whatever Floe's reason for it.
        Arguments.of(new RefusedLocationException("outside the table"), 403,
            "ForbiddenException"),
        // The store refused the server's own configuration: not worth retrying, and known not
        // to have written anything, so no 5xx (which leaves a commit's outcome unknown).
        Arguments.of(new StorageRefusedException("The storage of bucket configuration 'lake' "
            + "refused the server's own request: it answered 403 AccessDenied", null), 403,
            "ForbiddenException"),
        Arguments.of(new NoSuchNamespaceException("Namespace does not exist: a"), 404,
            "NoSuchNamespaceException"),
        Arguments.of(new NoSuchTableException("Table does not exist: a.b"), 404,
            "NoSuchTableException"),
        Arguments.of(new AlreadyExistsException("Table already exists: a.b"), 409,
            "AlreadyExistsException"),
        Arguments.of(new NamespaceNotEmptyException("Namespace a is not empty"), 409,
            "NamespaceNotEmptyException"),
        Arguments.of(new CommitFailedException("Requirement failed"), 409,
            "CommitFailedException"),
        Arguments.of(new UnprocessableEntityException("another body"), 422,
            "UnprocessableEntityException"),
        Arguments.of(new BadRequestException("Malformed"), 400, "BadRequestException"),
        Arguments.of(new IllegalArgumentException("Invalid table name"), 400,
            "IllegalArgumentException"),
        Arguments.of(new InvalidNameException("bad name"), 400, "InvalidNameException"));
  }

  @ParameterizedTest
  @MethodSource("clientErrors")
  void aClientErrorKeepsItsMessageAndGetsItsStatusAndType(Exception error, int status,
      String type) {
    ErrorResponse response = IcebergErrors.toResponse(error, REQUEST);

    assertThat(response.code()).isEqualTo(status);
    assertThat(response.type()).isEqualTo(type);
    assertThat(response.message()).isEqualTo(error.getMessage());
  }

  @Test
  void aServerErrorSaysOnlyThatItHappenedAndUnderWhichRequestId() {
    ErrorResponse response = IcebergErrors.toResponse(new IllegalStateException(
        "ERROR: duplicate key value violates unique constraint \"tables_pkey\""), REQUEST);

    assertThat(response.code()).isEqualTo(500);
    assertThat(response.type()).isEqualTo("InternalServerError");
    assertThat(response.message()).contains(REQUEST).doesNotContain("duplicate key")
        .doesNotContain("IllegalStateException");
  }

  @Test
  void aStorageFailureIsAServerErrorThatShowsNoPathOfTheHost() {
    ErrorResponse response = IcebergErrors.toResponse(
        new StorageException("could not write /var/lib/floe/buckets/x"), REQUEST);

    assertThat(response.code()).isEqualTo(500);
    assertThat(response.message()).doesNotContain("/var/lib/floe");
  }

  @Test
  void anUnknownCommitOutcomeIsNamedSoClientsDoNotRetryBlindly() {
    ErrorResponse response = IcebergErrors.toResponse(
        new CommitStateUnknownException(new RuntimeException("connection reset")), REQUEST);

    assertThat(response.code()).isEqualTo(500);
    assertThat(response.type()).isEqualTo("CommitStateUnknownException");
  }

  @Test
  void heavyWorkPastItsOrgsBudgetIsA429SayingWhy() {
    ErrorResponse response = IcebergErrors.toResponse(new io.floe.application.model
        .TooBusyException("This org already runs 2 previews"), REQUEST);

    assertThat(response.code()).isEqualTo(429);
    assertThat(response.type()).isEqualTo("TooManyRequestsException");
    assertThat(response.message()).isEqualTo("This org already runs 2 previews");
  }

  @Test
  void anUnreachableDatabaseIsA503ThatSaysNothingWasChanged() {
    ErrorResponse response = IcebergErrors.toResponse(new DatabaseUnavailableException(
        new SQLTransientConnectionException("Connection is not available, request timed out")),
        REQUEST);

    assertThat(response.code()).isEqualTo(503);
    assertThat(response.type()).isEqualTo("ServiceUnavailableException");
    assertThat(response.message()).contains("nothing was changed")
        .doesNotContain("Connection is not available");
  }

  @Test
  void aCommitWhoseOutcomeStayedUnknownIsTheSpecificationsCommitStateUnknown() {
    ErrorResponse response = IcebergErrors.toResponse(new TransactionOutcomeUnknownException(
        new RuntimeException("An I/O error occurred while sending to the backend")), REQUEST);

    assertThat(response.code()).isEqualTo(500);
    assertThat(response.type()).isEqualTo("CommitStateUnknownException");
    assertThat(response.message()).contains(REQUEST).doesNotContain("I/O");
  }

  @Test
  void aRefusalOfARoutesHttpLayerKeepsItsStatusAndWords() {
    ErrorResponse response = IcebergErrors.toResponse(new HttpResponseException(408,
        "The request body arrived too slowly"), REQUEST);

    assertThat(response.code()).isEqualTo(408);
    assertThat(response.type()).isEqualTo("RequestTimeoutException");
    assertThat(response.message()).isEqualTo("The request body arrived too slowly");
    assertThat(IcebergErrors.statusOf(new HttpResponseException(413, "too large")))
        .isEqualTo(413);
  }

  @Test
  void aRequestTheHttpLayerCouldNotReadIsTheClientsError() {
    ErrorResponse response = IcebergErrors.toResponse(new RuntimeException("wrapped",
        new BadMessageException(HttpStatus.BAD_REQUEST.getCode(), "Early EOF")), REQUEST);

    assertThat(response.code()).isEqualTo(400);
    assertThat(response.type()).isEqualTo("BadRequestException");
    assertThat(response.message()).contains("Early EOF");
  }
}
