package io.floe.adapters.icechunk.format;

/**
 * Crockford base32 as Icechunk uses it in object names: uppercase, no padding, bits read most
 * significant first and zero bits appended on the right when the input is not a multiple of 5
 * bits (12 bytes give 20 characters, 8 bytes give 13).
 */
public final class Crockford {
  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();

  private Crockford() {}

  public static String encode(byte[] data) {
    StringBuilder out = new StringBuilder((data.length * 8 + 4) / 5);
    int buffer = 0;
    int bits = 0;
    for (byte b : data) {
      buffer = (buffer << 8) | (b & 0xff);
      bits += 8;
      while (bits >= 5) {
        out.append(ALPHABET[(buffer >>> (bits - 5)) & 31]);
        bits -= 5;
      }
    }
    if (bits > 0) {
      out.append(ALPHABET[(buffer << (5 - bits)) & 31]);
    }
    return out.toString();
  }

  /** Decodes {@code text} into exactly {@code length} bytes, rejecting anything else. */
  public static byte[] decode(String text, int length) {
    int expectedChars = (length * 8 + 4) / 5;
    if (text == null || text.length() != expectedChars) {
      throw new IllegalArgumentException("'" + text + "' is not a " + expectedChars
          + "-character Crockford base32 id");
    }
    byte[] out = new byte[length];
    int buffer = 0;
    int bits = 0;
    int index = 0;
    for (int i = 0; i < text.length(); i++) {
      int value = valueOf(text.charAt(i));
      if (value < 0) {
        throw new IllegalArgumentException("'" + text + "' is not Crockford base32: bad character '"
            + text.charAt(i) + "'");
      }
      buffer = (buffer << 5) | value;
      bits += 5;
      if (bits >= 8) {
        if (index < length) {
          out[index++] = (byte) (buffer >>> (bits - 8));
        }
        bits -= 8;
      }
      buffer &= (1 << bits) - 1;
    }
    if (buffer != 0) {
      throw new IllegalArgumentException("'" + text + "' has non-zero padding bits");
    }
    return out;
  }

  private static int valueOf(char c) {
    char u = Character.toUpperCase(c);
    if (u >= '0' && u <= '9') {
      return u - '0';
    }
    // Crockford reads the easily-confused letters as digits.
    if (u == 'O') {
      return 0;
    }
    if (u == 'I' || u == 'L') {
      return 1;
    }
    for (int i = 10; i < ALPHABET.length; i++) {
      if (ALPHABET[i] == u) {
        return i;
      }
    }
    return -1;
  }
}
