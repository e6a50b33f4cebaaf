package io.floe.application.iceberg;

import io.floe.domain.StorableText;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Keyset pagination: a page token is the last name of the previous page, encoded so that clients
 * treat it as opaque. The next query starts strictly after it, so its cost does not grow with the
 * page's position.
 */
public final class PageToken {
  public static final int MAX_PAGE_SIZE = 1_000;

  private PageToken() {}

  /**
   * The name a token stands for. What it decodes to passes the rule of all text Floe is given
   * ({@link StorableText}): a token is the client's to send, whatever this server made of it.
   */
  public static Optional<String> decode(String token) {
    if (token == null || token.isEmpty()) {
      return Optional.empty();
    }
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(token);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Invalid page token: %s", token);
    }
    try {
      return Optional.of(StorableText.fromUtf8(bytes, "the name it stands for"));
    } catch (StorableText.InvalidTextException e) {
      throw new BadRequestException("Invalid page token: %s", e.getMessage());
    }
  }

  public static String encode(String lastName) {
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(lastName.getBytes(StandardCharsets.UTF_8));
  }

  /** The number of rows to fetch: one more than the page, to learn whether another page follows. */
  public static int fetchSize(Integer pageSize) {
    if (pageSize == null) {
      return Integer.MAX_VALUE;
    }
    if (pageSize < 1) {
      throw new BadRequestException("Invalid page size: %s (must be at least 1)", pageSize);
    }
    return Math.min(pageSize, MAX_PAGE_SIZE) + 1;
  }
}
