package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.testing.RandomTree;
import dev.stele.testing.Rgw;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** The command line on {@code s3://} repositories, against Ceph RGW. */
class S3CommandLineTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static S3Client s3;

  @TempDir Path tmp;

  @SuppressWarnings(
      "deprecation") // ApacheHttpClient: its successor, apache5-client, is a new dependency and a
  // change of its own
  @BeforeAll
  static void connect() {
    Rgw rgw = Rgw.shared();
    s3 =
        S3Client.builder()
            .httpClientBuilder(ApacheHttpClient.builder().expectContinueEnabled(false))
            .endpointOverride(rgw.endpoint())
            .region(Region.of(rgw.region()))
            .forcePathStyle(true)
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(rgw.accessKey(), rgw.secretKey())))
            .build();
  }

  @AfterAll
  static void close() {
    s3.close();
  }

  private static String bucket(boolean locked) {
    String name =
        (locked ? "cli-lock-" : "cli-plain-") + UUID.randomUUID().toString().substring(0, 8);
    s3.createBucket(b -> b.bucket(name).objectLockEnabledForBucket(locked ? true : null));
    return name;
  }

  private static Cli cli(String repo) {
    Rgw rgw = Rgw.shared();
    return new Cli(repo, "correct horse")
        .with("STELE_S3_ENDPOINT", rgw.endpoint().toString())
        .with("STELE_S3_REGION", rgw.region())
        .with("STELE_S3_PATH_STYLE", "true")
        .with("AWS_ACCESS_KEY_ID", rgw.accessKey())
        .with("AWS_SECRET_ACCESS_KEY", rgw.secretKey());
  }

  private static Cli.Run init(Cli cli, String mode) {
    List<String> args =
        new ArrayList<>(List.of("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1"));
    if (!mode.equals("none")) {
      args.addAll(List.of("--lock-mode", mode, "--min-retention", "1m"));
    }
    return cli.run(args.toArray(String[]::new));
  }

  @Test
  void backupAndRestoreOnALockedBucketAreByteIdentical() throws IOException {
    Cli cli = cli("s3://" + bucket(true) + "/repo");
    Cli.Run init = init(cli, "compliance");
    assertThat(init.exitCode()).as(init.stderr()).isZero();
    assertThat(init.stdout()).contains("versioning Enabled, object lock on");

    Path source = tmp.resolve("source");
    java.nio.file.Files.createDirectories(source.resolve("sub"));
    java.nio.file.Files.writeString(source.resolve("hello.txt"), "hello, bucket\n");
    RandomTree.writeRandom(source.resolve("sub/random.bin"), 3_000_000, new Random(5));
    Cli.Run create = cli.run("snapshot", "create", source.toString(), "--json");
    assertThat(create.exitCode()).as(create.stderr()).isZero();

    Path target = tmp.resolve("restored");
    Cli.Run restore = cli.run("restore", "latest:" + source, "--target", target.toString());
    assertThat(restore.exitCode()).as(restore.stderr()).isZero();
    assertThat(TreeComparison.compare(source, target)).isEmpty();

    Cli.Run status = cli.run("repo", "status", "--json");
    assertThat(status.exitCode()).as(status.stderr()).isZero();
    JsonNode bucket = JSON.readTree(status.stdout()).get("bucket");
    assertThat(bucket.get("objectLock").asBoolean()).isTrue();
    assertThat(bucket.get("versioning").asText()).isEqualTo("Enabled");
    assertThat(cli.run("verify").exitCode()).isZero();
  }

  @Test
  void initRefusesALockModeTheBucketCannotHonour() {
    Cli cli = cli("s3://" + bucket(false) + "/repo");
    Cli.Run refused = init(cli, "compliance");
    assertThat(refused.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(refused.stderr())
        .contains("does not have object lock enabled")
        .contains("--lock-mode none")
        .doesNotContain("\tat ");
    Cli.Run plain = init(cli, "none");
    assertThat(plain.exitCode()).as(plain.stderr()).isZero();
  }

  @Test
  void initRefusesAPrefixThatHoldsAnything() {
    Cli cli = cli("s3://" + bucket(true) + "/repo");
    assertThat(init(cli, "governance").exitCode()).isZero();
    Cli.Run again = init(cli, "governance");
    assertThat(again.exitCode()).isNotZero();
    assertThat(again.stderr()).contains("not empty");
  }
}
