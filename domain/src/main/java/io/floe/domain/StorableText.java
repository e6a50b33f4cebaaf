package io.floe.domain;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The one rule for text Floe keeps: any Unicode text but NUL (U+0000), which PostgreSQL stores
 * neither in {@code text} nor in {@code jsonb}, and unpaired surrogates, which no UTF-8 encoding
 * can represent. The HTTP layer applies it to everything a request carries, so that a caller
 * learns which field broke it; the value types that hold text apply it again. Text that arrives
 * encoded (percent-encoded, in base64, in a signed token) is decoded with {@link #fromUtf8}, so
 * that what it decodes to passes the same rule.
 */
public final class StorableText {
  private StorableText() {}

  /** What makes {@code text} unstorable, or empty when it is fine (null is fine: absent). */
  public static Optional<String> problem(String text) {
    if (text == null) {
      return Optional.empty();
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == 0) {
        return Optional.of("contains a NUL character (U+0000)");
      }
      if (Character.isHighSurrogate(c) && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return Optional.of(String.format("contains an unpaired surrogate (U+%04X)", (int) c));
      }
    }
    return Optional.empty();
  }

  /** Returns {@code text}, or refuses it naming {@code what} it is. */
  public static String require(String text, String what) {
    problem(text).ifPresent(problem -> {
      throw new InvalidTextException(what + " " + problem);
    });
    return text;
  }

  /**
   * Decoded bytes as text: strict UTF-8 (no malformed or unmappable byte is replaced) that breaks
   * no rule, or refuses them naming {@code what} they are.
   */
  public static String fromUtf8(byte[] bytes, String what) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new InvalidTextException(what + " is not valid UTF-8");
    }
    return require(text, what);
  }

  /** Text that breaks the rule. */
  public static final class InvalidTextException extends DomainException {
    public InvalidTextException(String message) {
      super(message);
    }
  }
}
