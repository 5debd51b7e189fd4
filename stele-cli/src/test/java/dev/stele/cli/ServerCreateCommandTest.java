package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.repo.Json;
import dev.stele.repo.Repository;
import dev.stele.server.RepositoryServer;
import dev.stele.server.ServerOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code snapshot create} through a real {@link RepositoryServer} by an Append user, who has no
 * repository password: the snapshot the direct command would make, only changed files' bytes sent
 * the second time, and one line for what the user's rule does not allow.
 */
class ServerCreateCommandTest {
  private static final String PASSWORD = "correct horse";

  @TempDir Path tmp;
  private Cli direct;
  private Repository repo;
  private RepositoryServer server;
  private String url;
  private Path vmDir;
  private byte[] big;
  private final ByteArrayOutputStream audit = new ByteArrayOutputStream();

  @BeforeEach
  void setUp() throws Exception {
    Path repoDir = tmp.resolve("repo");
    direct = new Cli(repoDir.toString(), PASSWORD);
    assertThat(direct.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1").exitCode())
        .isZero();
    vmDir = tmp.resolve("vm");
    Cli.writeSampleSource(vmDir);
    big = new byte[2_500_000];
    new Random(3).nextBytes(big);
    Files.write(vmDir.resolve("big.bin"), big);
    ServerCommandTest.certificate(tmp);
    Path users = Files.createDirectories(tmp.resolve("users"));
    Files.writeString(users.resolve("carol"), "carol-pw");
    Files.writeString(users.resolve("vm"), "vm-pw");
    Files.writeString(users.resolve("reader"), "reader-pw");
    Files.writeString(
        tmp.resolve("access.json"),
        """
        {"admins": ["carol"],
         "rules": [{"users": ["vm"], "access": "Append", "hosts": ["vm-1"], "paths": ["%s"]},
                   {"users": ["reader"], "hosts": ["vm-1"]}]}
        """
            .formatted(vmDir));
    Clock clock = Clock.systemUTC();
    repo = Repository.open(new FilesystemBlobStore(repoDir, clock), PASSWORD.toCharArray(), clock);
    server =
        RepositoryServer.start(
            repo,
            ServerOptions.of(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                tmp.resolve("tls.crt"),
                tmp.resolve("tls.key"),
                users,
                tmp.resolve("access.json"),
                new PrintStream(audit, true, StandardCharsets.UTF_8)));
    url = "https://localhost:" + server.address().getPort();
  }

  @AfterEach
  void tearDown() throws Exception {
    server.close();
    repo.close();
  }

  private Cli.Run as(String user, String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--server-cert-fingerprint";
    all[args.length + 1] = server.fingerprint();
    return new Cli(url, user + "-pw")
        .with("STELE_USER", user)
        .with("STELE_PASSWORD", user + "-pw")
        .run(all);
  }

  private List<JsonNode> creates() throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : audit.toString(StandardCharsets.UTF_8).split("\n", -1)) {
      if (!line.isEmpty() && Json.MAPPER.readTree(line).path("action").asText().equals("create")) {
        lines.add(Json.MAPPER.readTree(line));
      }
    }
    return lines;
  }

  @Test
  void anAppendUserBacksUpThroughTheServerAndOnlyChangedBytesTravel() throws Exception {
    Cli.Run first = as("vm", "snapshot", "create", "--host", "vm-1", vmDir.toString());
    assertThat(first.exitCode()).as(first.stderr()).isZero();
    assertThat(first.stdout())
        .containsPattern("files: +\\d+ \\(\\d+ new or changed\\) in \\d+ directories")
        .containsPattern("snapshot [0-9a-f]{8} saved in ");
    long sent = creates().get(0).path("bytes").asLong();
    assertThat(sent).isGreaterThanOrEqualTo(big.length);

    // The repository has it as the direct command would have made it.
    Cli.Run list = direct.run("snapshot", "list", "--json");
    JsonNode snapshots = Json.MAPPER.readTree(list.stdout());
    assertThat(snapshots).hasSize(1);
    assertThat(snapshots.get(0).path("host").asText()).isEqualTo("vm-1");
    String id = snapshots.get(0).path("id").asText();
    Cli.Run cat = as("vm", "cat", id + ":" + vmDir + "/big.bin");
    assertThat(cat.stdoutBytes()).isEqualTo(big);
    assertThat(direct.run("ls", "-r", id).stdout()).contains("hello.txt", "big.bin");

    Files.writeString(vmDir.resolve("hello.txt"), "hello again, changed\n");
    Cli.Run second = as("vm", "snapshot", "create", "--host", "vm-1", vmDir.toString());
    assertThat(second.exitCode()).as(second.stderr()).isZero();
    assertThat(second.stdout())
        .contains("parent snapshot " + id.substring(0, 8))
        .contains("(1 new or changed)");
    assertThat(creates().get(1).path("bytes").asLong())
        .isEqualTo("hello again, changed\n".length());
    assertThat(direct.run("verify").exitCode()).isZero();
  }

  @Test
  void whatTheRuleDoesNotAllowIsOneLineAndNothingIsCreated() throws Exception {
    Cli.Run reader = as("reader", "snapshot", "create", "--host", "vm-1", vmDir.toString());
    assertThat(reader.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(reader.errorLines())
        .singleElement()
        .asString()
        .startsWith("stele: server: no Append rule of yours holds a snapshot of host vm-1");
    Cli.Run otherHost = as("vm", "snapshot", "create", "--host", "vm-2", vmDir.toString());
    assertThat(otherHost.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(otherHost.errorLines()).singleElement().asString().contains("host vm-2");
    assertThat(Json.MAPPER.readTree(direct.run("snapshot", "list", "--json").stdout())).isEmpty();
  }

  @Test
  void forgetAndMaintenanceThroughTheServerAreUsageErrors() {
    Cli.Run created = as("vm", "snapshot", "create", "--host", "vm-1", vmDir.toString());
    assertThat(created.exitCode()).isZero();
    assertThat(as("carol", "snapshot", "forget", "latest").exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(as("carol", "maintenance", "run").exitCode()).isEqualTo(ExitCode.USAGE);
  }
}
