package dev.stele.snapshot;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * File names and symbolic link targets are byte strings on Linux, not text. Stele keeps them in a
 * {@link String} without loss by decoding them as UTF-8 with <em>surrogate escapes</em> (as
 * Python's {@code surrogateescape} does): every byte that is not part of a valid UTF-8 sequence
 * becomes the lone surrogate {@code U+DC00 + byte} (U+DC80…U+DCFF). Valid UTF-8 never decodes to a
 * lone surrogate, so the mapping is one to one and {@link #encode} gives back the exact bytes.
 * Trees record those bytes (docs/format.md §10).
 *
 * <p>For people, {@link #display} shows {@code \xHH} for each escaped byte and for each control
 * character (U+0000…U+001F and U+007F: a newline in a name must not split a listing's line), {@code
 * \\} for each backslash, and every other character as it is; {@link #parseDisplay} reverses it. A
 * whole path displays the same way: {@code /} is never escaped.
 */
public final class FileName {
  private static final char ESCAPE_BASE = '\uDC00';

  private FileName() {}

  /** The name for these bytes: UTF-8, with each byte of an invalid sequence escaped. */
  public static String decode(byte[] bytes) {
    return decode(bytes, 0, bytes.length);
  }

  /** {@link #decode(byte[])} of {@code length} bytes from {@code offset}. */
  public static String decode(byte[] bytes, int offset, int length) {
    // Most names are ASCII: every tree read decodes every name, so skip the decoder for them.
    if (isAscii(bytes, offset, length)) {
      return new String(bytes, offset, length, StandardCharsets.US_ASCII);
    }
    CharsetDecoder strict =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      return strict.decode(ByteBuffer.wrap(bytes, offset, length)).toString();
    } catch (CharacterCodingException invalid) {
      return decodeEscaping(ByteBuffer.wrap(bytes, offset, length), strict.reset());
    }
  }

  private static boolean isAscii(byte[] bytes, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      if (bytes[i] < 0) {
        return false;
      }
    }
    return true;
  }

  private static String decodeEscaping(ByteBuffer in, CharsetDecoder decoder) {
    CharBuffer out = CharBuffer.allocate(in.remaining() * 2 + 1);
    while (true) {
      var result = decoder.decode(in, out, true);
      if (result.isUnderflow()) {
        decoder.flush(out);
        return out.flip().toString();
      }
      if (result.isError()) {
        for (int i = 0; i < result.length(); i++) {
          out.put((char) (ESCAPE_BASE + (in.get() & 0xFF)));
        }
      }
    }
  }

  /** The exact bytes of a name made by {@link #decode} (or of any well-formed string). */
  public static byte[] encode(String name) {
    if (!hasEscapes(name)) {
      return name.getBytes(StandardCharsets.UTF_8);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(name.length() + 8);
    int start = 0;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (isEscape(name, i)) {
        out.writeBytes(name.substring(start, i).getBytes(StandardCharsets.UTF_8));
        out.write(c - ESCAPE_BASE);
        start = i + 1;
      }
    }
    out.writeBytes(name.substring(start).getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /** True if the name is not valid UTF-8: it holds at least one escaped byte. */
  public static boolean hasEscapes(String name) {
    for (int i = 0; i < name.length(); i++) {
      if (isEscape(name, i)) {
        return true;
      }
    }
    return false;
  }

  /** A lone low surrogate U+DC80…U+DCFF (one not preceded by a high surrogate) is an escape. */
  private static boolean isEscape(String s, int i) {
    char c = s.charAt(i);
    return c >= '\uDC80'
        && c <= '\uDCFF'
        && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
  }

  /**
   * The exact name of {@code path}'s last element. The JDK keeps a path's bytes but decodes them
   * lossily for {@link Path#toString}; its file URI percent-encodes the bytes themselves, so it is
   * consulted only when the decoded name shows a replacement character.
   */
  public static String of(Path path) {
    String shown = path.getFileName().toString();
    if (shown.indexOf('\uFFFD') < 0) {
      return shown;
    }
    String raw = path.toAbsolutePath().toUri().getRawPath();
    if (raw.endsWith("/")) {
      raw = raw.substring(0, raw.length() - 1);
    }
    return decode(percentDecode(raw.substring(raw.lastIndexOf('/') + 1)));
  }

  /**
   * The exact text of a whole path, absolute or relative, with its slashes as they are (a symbolic
   * link's target, say): each element as {@link #of} reads it. Slashes are ASCII, so the JDK's
   * lossy {@link Path#toString} still shows where they are.
   */
  public static String ofPath(Path path) {
    String shown = path.toString();
    if (shown.indexOf('\uFFFD') < 0) {
      return shown;
    }
    String[] parts = shown.split("/", -1);
    StringBuilder out = new StringBuilder(shown.length());
    int element = 0;
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        out.append('/');
      }
      if (!parts[i].isEmpty()) {
        out.append(of(path.getName(element++)));
      }
    }
    return out.toString();
  }

  /**
   * {@code dir} resolved against one name, byte-exact: a name that is not valid UTF-8 goes through
   * a file URI (the one public way to give the JDK a path's raw bytes).
   *
   * @throws IllegalArgumentException if {@code name} is empty, {@code .}, {@code ..} or holds a
   *     {@code /} or NUL: it is not one path element
   */
  public static Path resolve(Path dir, String name) {
    requireOneElement(name);
    if (!hasEscapes(name)) {
      return dir.resolve(name);
    }
    StringBuilder uri = new StringBuilder("file://");
    uri.append(dir.toAbsolutePath().toUri().getRawPath());
    if (uri.charAt(uri.length() - 1) != '/') {
      uri.append('/');
    }
    for (byte b : encode(name)) {
      uri.append(String.format("%%%02X", b & 0xFF));
    }
    return Path.of(URI.create(uri.toString()));
  }

  /**
   * {@code name}, if it is one path element.
   *
   * @throws IllegalArgumentException if it is empty, {@code .}, {@code ..} or holds a {@code /} or
   *     NUL
   */
  static String requireOneElement(String name) {
    if (name.isEmpty()
        || name.equals(".")
        || name.equals("..")
        || name.indexOf('/') >= 0
        || name.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("not a file name: " + display(name));
    }
    return name;
  }

  private static byte[] percentDecode(String raw) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        out.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
      }
    }
    return out.toByteArray();
  }

  /** The name (or path) as a person reads it: see the class comment. */
  public static String display(String name) {
    if (!needsDisplayEscapes(name)) {
      return name;
    }
    StringBuilder out = new StringBuilder(name.length() + 8);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (isEscape(name, i)) {
        out.append(String.format("\\x%02x", c - ESCAPE_BASE));
      } else if (isControl(c)) {
        out.append(String.format("\\x%02x", (int) c));
      } else if (c == '\\') {
        out.append("\\\\");
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean needsDisplayEscapes(String name) {
    for (int i = 0; i < name.length(); i++) {
      if (name.charAt(i) == '\\' || isControl(name.charAt(i)) || isEscape(name, i)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isControl(char c) {
    return c < 0x20 || c == 0x7f;
  }

  /**
   * The name that {@link #display} shows as {@code shown}. Text without a backslash is taken as it
   * is.
   *
   * @throws IllegalArgumentException if a backslash starts neither {@code \\} nor {@code \xHH}
   */
  public static String parseDisplay(String shown) {
    if (shown.indexOf('\\') < 0) {
      return shown;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(shown.length());
    int i = 0;
    while (i < shown.length()) {
      char c = shown.charAt(i);
      if (c != '\\') {
        int end = shown.indexOf('\\', i);
        end = end < 0 ? shown.length() : end;
        bytes.writeBytes(shown.substring(i, end).getBytes(StandardCharsets.UTF_8));
        i = end;
      } else if (shown.startsWith("\\\\", i)) {
        bytes.write('\\');
        i += 2;
      } else if (shown.startsWith("\\x", i) && i + 4 <= shown.length()) {
        try {
          bytes.write(Integer.parseInt(shown.substring(i + 2, i + 4), 16));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("bad escape in " + shown + " at " + i);
        }
        i += 4;
      } else {
        throw new IllegalArgumentException(
            "a backslash in a name must start \\\\ or \\xHH: " + shown);
      }
    }
    return decode(bytes.toByteArray());
  }
}
