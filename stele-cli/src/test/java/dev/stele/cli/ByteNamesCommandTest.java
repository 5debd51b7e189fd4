package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.snapshot.FileName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names that are not UTF-8 are shown escaped and distinct, and typed back in the same form. */
class ByteNamesCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  Path source;
  Cli cli;

  private static String name(String ascii, int invalidByte) {
    byte[] head = ascii.getBytes(StandardCharsets.US_ASCII);
    byte[] bytes = Arrays.copyOf(head, head.length + 1);
    bytes[head.length] = (byte) invalidByte;
    return FileName.decode(bytes);
  }

  @BeforeEach
  void setUp() throws IOException {
    source = Files.createDirectories(tmp.resolve("source"));
    Files.writeString(FileName.resolve(source, name("col", 0xff)), "ff");
    Files.writeString(FileName.resolve(source, name("col", 0xfe)), "fe");
    Files.writeString(FileName.resolve(source, name("bad", 0xff)), "bad");
    Files.writeString(source.resolve("a\\b"), "backslash");
    Files.createSymbolicLink(
        source.resolve("link"), FileName.resolve(source, name("col", 0xff)).getFileName());
    cli = new Cli(tmp.resolve("repo").toString(), "correct horse");
    assertThat(cli.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1").exitCode())
        .isZero();
  }

  private String snapshot() throws IOException {
    Cli.Run run = cli.run("snapshot", "create", source.toString(), "--json");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode result = JSON.readTree(run.stdout());
    assertThat(result.get("warnings")).isEmpty();
    return result.get("id").asText();
  }

  @Test
  void lsShowsInvalidBytesEscapedAndDistinct() throws IOException {
    snapshot();

    Cli.Run ls = cli.run("ls", "latest:" + source);
    Cli.Run long_ = cli.run("ls", "-l", "latest:" + source);

    assertThat(ls.exitCode()).as(ls.stderr()).isZero();
    assertThat(ls.stdout().lines())
        .containsExactly(
            source + "/a\\\\b",
            source + "/bad\\xff",
            source + "/col\\xfe",
            source + "/col\\xff",
            source + "/link");
    assertThat(long_.stdout()).contains(source + "/link -> col\\xff");
  }

  @Test
  void lsShowsSpecialFilesWithTheirTypeAndDeviceNumbers() throws Exception {
    assertThat(System.getProperty("user.name")).as("tests run as root").isEqualTo("root");
    Path special = Files.createDirectories(tmp.resolve("special"));
    run("mkfifo", special.resolve("fifo").toString());
    run("mknod", "-m", "0640", special.resolve("null").toString(), "c", "1", "3");
    source = special;
    snapshot();

    Cli.Run long_ = cli.run("ls", "-l", "latest:" + special);
    Cli.Run json = cli.run("ls", "--json", "latest:" + special);

    assertThat(long_.stdout().lines())
        .anyMatch(l -> l.startsWith("prw-") && l.endsWith(special + "/fifo"))
        .anyMatch(l -> l.startsWith("crw-r-----") && l.contains(" 1, 3 ") && l.endsWith("/null"));
    JsonNode entries = JSON.readTree(json.stdout());
    assertThat(entries.get(0).get("type").asText()).isEqualTo("fifo");
    assertThat(entries.get(1).get("type").asText()).isEqualTo("char_device");
    assertThat(entries.get(1).get("mode").asText()).isEqualTo("0640");
    assertThat(entries.get(1).get("rdev").asLong()).isEqualTo((1 << 8) | 3);
  }

  @Test
  void deviceNumbersAreSplitAsGlibcMakesThem() {
    long major = 4100; // above 4095: its high bits sit above the minor's
    long minor = 300;
    long rdev =
        (minor & 0xff) | (major & 0xfff) << 8 | (minor & ~0xffL) << 12 | (major & ~0xfffL) << 32;

    assertThat(LsCommand.device(rdev)).isEqualTo("4100, 300");
    assertThat(LsCommand.device((1 << 8) | 3)).isEqualTo("1, 3");
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).inheritIO().start();
    assertThat(p.waitFor()).as(String.join(" ", command)).isZero();
  }

  @Test
  void lsJsonGivesBackTheExactBytesThroughParseDisplay() throws IOException {
    snapshot();

    Cli.Run ls = cli.run("ls", "--json", "latest:" + source);

    assertThat(ls.exitCode()).as(ls.stderr()).isZero();
    List<String> names = new ArrayList<>();
    String link = null;
    for (JsonNode entry : JSON.readTree(ls.stdout())) {
      String path = FileName.parseDisplay(entry.get("path").asText());
      names.add(path.substring(path.lastIndexOf('/') + 1));
      if (entry.get("type").asText().equals("symlink")) {
        link = FileName.parseDisplay(entry.get("target").asText());
      }
    }
    try (var listing = Files.list(source)) {
      assertThat(names).containsExactlyInAnyOrderElementsOf(listing.map(FileName::of).toList());
    }
    assertThat(FileName.encode(link))
        .isEqualTo(
            FileName.encode(FileName.ofPath(Files.readSymbolicLink(source.resolve("link")))));
  }

  @Test
  void pathsAreTypedInTheShownForm() throws IOException {
    snapshot();

    Cli.Run ff = cli.run("cat", "latest:" + source + "/col\\xff");
    Cli.Run fe = cli.run("cat", "latest:" + source + "/col\\xFE");
    Cli.Run backslash = cli.run("cat", "latest:" + source + "/a\\\\b");
    Cli.Run badEscape = cli.run("cat", "latest:" + source + "/a\\b");

    assertThat(ff.stdout()).isEqualTo("ff");
    assertThat(fe.stdout()).isEqualTo("fe");
    assertThat(backslash.stdout()).isEqualTo("backslash");
    assertThat(badEscape.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(badEscape.errorLines()).singleElement().asString().contains("backslash");
  }

  @Test
  void diffShowsChangedNamesEscaped() throws IOException {
    String first = snapshot();
    Files.delete(FileName.resolve(source, name("col", 0xfe)));
    Files.writeString(FileName.resolve(source, name("new", 0x80)), "new");
    String second = snapshot();

    Cli.Run diff = cli.run("snapshot", "diff", first, second);

    assertThat(diff.exitCode()).as(diff.stderr()).isZero();
    assertThat(diff.stdout().lines())
        .contains("- " + source + "/col\\xfe", "+ " + source + "/new\\x80");
  }
}
