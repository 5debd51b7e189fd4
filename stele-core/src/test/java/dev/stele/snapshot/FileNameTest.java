package dev.stele.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names are bytes: every byte string survives decode → encode, and display is reversible. */
class FileNameTest {
  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  @Test
  void validUtf8DecodesAsTextAndEncodesToTheSameBytes() {
    String name = "caf\u00e9 \uD83D\uDE00 \uFFFD";
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    assertThat(FileName.decode(utf8)).isEqualTo(name);
    assertThat(FileName.encode(name)).isEqualTo(utf8);
    assertThat(FileName.hasEscapes(name)).isFalse();
  }

  @Test
  void twoNamesDifferingOnlyInAnInvalidByteStayTwoNames() {
    String ff = FileName.decode(bytes('c', 'o', 'l', 0xff));
    String fe = FileName.decode(bytes('c', 'o', 'l', 0xfe));
    assertThat(ff).isNotEqualTo(fe);
    assertThat(FileName.encode(ff)).isEqualTo(bytes('c', 'o', 'l', 0xff));
    assertThat(FileName.encode(fe)).isEqualTo(bytes('c', 'o', 'l', 0xfe));
    assertThat(FileName.display(ff)).isEqualTo("col\\xff");
  }

  @Test
  void everyRandomByteStringRoundTripsExactly() {
    Random random = new Random(9);
    for (int i = 0; i < 20_000; i++) {
      byte[] name = new byte[random.nextInt(12)];
      random.nextBytes(name);
      String decoded = FileName.decode(name);
      assertThat(FileName.encode(decoded)).as("bytes %s", List.of(decoded)).isEqualTo(name);
      assertThat(FileName.parseDisplay(FileName.display(decoded))).isEqualTo(decoded);
    }
  }

  @Test
  void encodedSurrogatesAndOverlongFormsAreEscapedNotDecoded() {
    byte[] surrogate = bytes(0xed, 0xb2, 0x80);
    byte[] overlong = bytes(0xc0, 0xaf);
    assertThat(FileName.encode(FileName.decode(surrogate))).isEqualTo(surrogate);
    assertThat(FileName.encode(FileName.decode(overlong))).isEqualTo(overlong);
    assertThat(FileName.display(FileName.decode(overlong))).isEqualTo("\\xc0\\xaf");
  }

  @Test
  void pathsWithInvalidBytesAreResolvedAndReadBackExactly(@TempDir Path dir) throws Exception {
    String ff = FileName.decode(bytes('c', 'o', 'l', 0xff));
    String fe = FileName.decode(bytes('c', 'o', 'l', 0xfe));
    Files.writeString(FileName.resolve(dir, ff), "ff");
    Files.writeString(FileName.resolve(dir, fe), "fe");
    Files.writeString(FileName.resolve(dir, "plain"), "plain");
    Map<String, String> found = new TreeMap<>();
    try (var entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        found.put(FileName.of(p), Files.readString(p));
      }
    }
    assertThat(found).containsOnly(entry(ff, "ff"), entry(fe, "fe"), entry("plain", "plain"));
    assertThatThrownBy(() -> FileName.resolve(dir, ".."))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FileName.resolve(dir, "a/b"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void displayEscapesBackslashesSoThatItIsReversible() {
    String literal = "a\\xff";
    assertThat(FileName.display(literal)).isEqualTo("a\\\\xff");
    assertThat(FileName.parseDisplay(FileName.display(literal))).isEqualTo(literal);
    assertThat(FileName.display("plain name")).isEqualTo("plain name");
    assertThatThrownBy(() -> FileName.parseDisplay("a\\q"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void controlCharactersAreShownEscapedSoThatAListingKeepsOneEntryALine() {
    String name = "two\nlines\t\u007f";
    assertThat(FileName.display(name)).isEqualTo("two\\x0alines\\x09\\x7f");
    assertThat(FileName.parseDisplay(FileName.display(name))).isEqualTo(name);
    assertThat(FileName.display("/a/b c/\u00e9")).isEqualTo("/a/b c/\u00e9");
  }

  @Test
  void wholePathsAreReadExactlyWithTheirSlashesRelativeOrAbsolute(@TempDir Path dir)
      throws Exception {
    String ff = FileName.decode(bytes('u', 'p', 0xff));
    Path up = FileName.resolve(dir, ff);
    Files.createDirectory(up);
    Path relative = Path.of("..").resolve(up.getFileName()).resolve("t");
    Files.createSymbolicLink(dir.resolve("rel"), relative);
    Files.createSymbolicLink(dir.resolve("abs"), up.resolve("x"));

    assertThat(FileName.encode(FileName.ofPath(Files.readSymbolicLink(dir.resolve("rel")))))
        .isEqualTo(bytes('.', '.', '/', 'u', 'p', 0xff, '/', 't'));
    assertThat(FileName.ofPath(Files.readSymbolicLink(dir.resolve("abs"))))
        .isEqualTo(dir + "/" + ff + "/x");
    assertThat(FileName.ofPath(Path.of("plain/path"))).isEqualTo("plain/path");
  }
}
