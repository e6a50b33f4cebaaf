package io.floe.application.model;

import io.floe.domain.StorableText;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * A feed position as readers carry it: opaque text (URL-safe base64 of
 * {@code <transaction>:<sequence>:<recorded-at millis>}). What a token decodes to is the
 * client's to send, whatever this server made of it: it passes the rule of all text Floe is given
 * ({@link StorableText}) and the strict shape above, or the request is a 400.
 */
public final class FeedToken {
  private static final Pattern SHAPE = Pattern.compile("(\\d{1,18}):(\\d{1,18}):(\\d{1,15})");
  /** The latest instant PostgreSQL and {@link Instant} both hold. */
  private static final long LATEST_MILLIS = Instant.parse("9999-12-31T23:59:59Z").toEpochMilli();

  private FeedToken() {}

  public static String encode(FeedPosition position) {
    String text = position.transaction() + ":" + position.sequence() + ":"
        + position.recordedAt().toEpochMilli();
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The position a token stands for; {@link FeedPosition#START} for none. */
  public static FeedPosition decode(String token) {
    if (token == null || token.isEmpty()) {
      return FeedPosition.START;
    }
    String text;
    try {
      text = StorableText.fromUtf8(Base64.getUrlDecoder().decode(token), "the position");
    } catch (IllegalArgumentException | StorableText.InvalidTextException e) {
      throw invalid();
    }
    Matcher parts = SHAPE.matcher(text);
    if (!parts.matches()) {
      throw invalid();
    }
    long millis = Long.parseLong(parts.group(3));
    if (millis > LATEST_MILLIS) {
      throw invalid();
    }
    return new FeedPosition(Long.parseLong(parts.group(1)), Long.parseLong(parts.group(2)),
        Instant.ofEpochMilli(millis));
  }

  private static BadRequestException invalid() {
    return new BadRequestException("Invalid continuation token: use one this server returned");
  }
}
