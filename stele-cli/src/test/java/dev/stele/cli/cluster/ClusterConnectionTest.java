package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.RunPhase;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the cluster commands find the cluster: {@code --kubeconfig}, {@code KUBECONFIG}, {@code
 * --context}, {@code -n} and {@code STELE_NAMESPACE}; and what a person sees when the kubeconfig or
 * the API server is not there.
 */
@EnableKubernetesMockClient(crud = true)
class ClusterConnectionTest {
  KubernetesClient client;
  @TempDir Path dir;
  ClusterFixture k8s;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
    k8s.backup("nightly", null, ClusterFixture.status(RunPhase.COMPLETED));
  }

  @Test
  void theKubeconfigVariableIsReadLikeTheOption() {
    Cli.Run run = k8s.cli.with("KUBECONFIG", k8s.kubeconfig.toString()).run("backup", "get");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("nightly");
  }

  @Test
  void contextChoosesTheClusterAndAnUnknownOneIsOneLine() throws IOException {
    Path other = dir.resolve("elsewhere.kubeconfig");
    ClusterFixture.writeKubeconfig(other, "elsewhere", client.getMasterUrl().toString());

    Cli.Run chosen =
        k8s.cli.run("backup", "get", "--kubeconfig", other.toString(), "--context", "mock");
    assertThat(chosen.exitCode()).as(chosen.stderr()).isZero();
    assertThat(chosen.stdout()).contains("nightly");

    Cli.Run unknown =
        k8s.cli.run("backup", "get", "--kubeconfig", other.toString(), "--context", "nope");
    assertThat(unknown.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(unknown.errorLines())
        .containsExactly("stele: --context nope: no such context in kubeconfig " + other);
  }

  @Test
  void anUnreachableApiServerIsOneLineNamingIt() throws IOException {
    Path other = dir.resolve("elsewhere.kubeconfig");
    ClusterFixture.writeKubeconfig(other, "elsewhere", client.getMasterUrl().toString());

    long t0 = System.nanoTime();
    Cli.Run run = k8s.cli.run("backup", "get", "--kubeconfig", other.toString());
    long ms = (System.nanoTime() - t0) / 1_000_000;

    assertThat(run.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr())
        .startsWith(
            "stele: cannot reach the Kubernetes API server at https://127.0.0.1:1/: connection"
                + " refused")
        .doesNotContain("\tat ");
    assertThat(ms).as("a person waits for the answer").isLessThan(5_000);

    Cli.Run debug = k8s.cli.run("backup", "get", "--kubeconfig", other.toString(), "--debug");
    assertThat(debug.stderr()).contains("\tat ");
  }

  @Test
  void aMissingKubeconfigFileIsNotFound() {
    Cli.Run run = k8s.cli.run("backup", "get", "--kubeconfig", dir.resolve("nope").toString());

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines())
        .containsExactly("stele: " + dir.resolve("nope") + ": no such kubeconfig file");
  }

  @Test
  void aKubeconfigIsReadAsFabric8ReadsItWithRelativePathsFromItsDirectory() throws IOException {
    Path file = dir.resolve("sub/cluster.kubeconfig");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: c
          cluster: {server: 'https://10.0.0.1:6443', certificate-authority: ca.crt}
        users:
        - name: u
          user: {client-certificate: certs/u.crt, client-key: certs/u.key, token: t0k}
        contexts:
        - name: x
          context: {cluster: c, user: u, namespace: team}
        current-context: x
        """);

    Config ours = KubeConfigs.find(Cli.environment(), file, null).config();
    Config theirs = Config.fromKubeconfig(null, file.toFile());

    Path sub = file.getParent();
    assertThat(ours.getCaCertFile()).isEqualTo(sub.resolve("ca.crt").toString());
    assertThat(ours.getClientCertFile()).isEqualTo(sub.resolve("certs/u.crt").toString());
    assertThat(ours.getClientKeyFile()).isEqualTo(sub.resolve("certs/u.key").toString());
    for (Config config : List.of(ours, theirs)) {
      assertThat(config.getMasterUrl()).isEqualTo("https://10.0.0.1:6443/");
      assertThat(config.getNamespace()).isEqualTo("team");
      assertThat(config.getAutoOAuthToken()).isEqualTo("t0k");
      assertThat(config.getCurrentContext().getName()).isEqualTo("x");
    }
    assertThat(ours.getCaCertFile()).isEqualTo(theirs.getCaCertFile());
    assertThat(ours.getClientCertFile()).isEqualTo(theirs.getClientCertFile());
    assertThat(ours.getClientKeyFile()).isEqualTo(theirs.getClientKeyFile());
  }

  @Test
  void aKubeconfigThatDoesNotParseIsOneLineNamingTheFileAndWhy() throws IOException {
    Map<String, String> reasons =
        Map.of(
            "clusters: [\n",
            "expected the node content, but found '<stream end>' (line 2)",
            "hello\n",
            "it is not a mapping of clusters, contexts and users",
            "clusters:\n- name: c\n  cluster: {server: [1]}\n",
            "unexpected value at clusters[0].cluster.server");
    for (Map.Entry<String, String> bad : reasons.entrySet()) {
      Path file = Files.writeString(dir.resolve("bad.kubeconfig"), bad.getKey());

      Cli.Run run = k8s.cli.run("backup", "get", "--kubeconfig", file.toString());

      assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
      assertThat(run.errorLines())
          .containsExactly("stele: kubeconfig " + file + " is not a kubeconfig: " + bad.getValue());
    }
    Path empty = Files.writeString(dir.resolve("empty.kubeconfig"), "");
    assertThat(k8s.cli.run("backup", "get", "--kubeconfig", empty.toString()).errorLines())
        .containsExactly("stele: kubeconfig " + empty + " is empty");
  }

  @Test
  void aRelativeKubeconfigVariableIsReadFromTheWorkingDirectory() {
    Path relative = Path.of("").toAbsolutePath().relativize(k8s.kubeconfig);
    assertThat(relative.isAbsolute()).isFalse();

    Cli.Run run = k8s.cli.with("KUBECONFIG", relative.toString()).run("backup", "get");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("nightly");
  }

  @Test
  void aKubeconfigVariableNamingNoFileSaysSoInsteadOfTryingTheInClusterAccount() {
    Cli.Run run = k8s.cli.with("KUBECONFIG", "gone.kubeconfig").run("backup", "get");

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: KUBECONFIG names no existing file ("
                + Path.of("gone.kubeconfig").toAbsolutePath()
                + "): correct it, or unset it to use ~/.kube/config");
  }

  @Test
  void withNoKubeconfigAtAllOutsideAPodTheMessageSaysWhatWasTried() {
    Cli.Run run =
        k8s.cli
            .with("KUBECONFIG", "")
            .with("HOME", dir.toString())
            .with("KUBERNETES_SERVICE_HOST", "")
            .run("backup", "get");

    assertThat(run.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stderr())
        .startsWith("stele: cannot reach the Kubernetes API server at ")
        .contains(
            " (no kubeconfig: KUBECONFIG is unset, "
                + dir.resolve(".kube/config")
                + " does not exist, and this is not a pod (KUBERNETES_SERVICE_HOST is unset);"
                + " pass --kubeconfig or set KUBECONFIG)");
  }

  @Test
  void anUnreachableServerSaysWhichKubeconfigNamedIt() throws IOException {
    Path other = dir.resolve("elsewhere.kubeconfig");
    ClusterFixture.writeKubeconfig(other, "elsewhere", client.getMasterUrl().toString());

    Cli.Run run = k8s.cli.run("backup", "get", "--kubeconfig", other.toString());

    assertThat(run.errorLines()).singleElement().asString().endsWith("(kubeconfig " + other + ")");
  }

  @Test
  void theNamespaceComesFromTheOptionThenTheVariableThenStele() {
    assertThat(k8s.run("backup", "create", "a", "-n", "team").exitCode()).isZero();
    assertThat(
            k8s.cli
                .with("STELE_NAMESPACE", "other")
                .run("backup", "create", "b", "--kubeconfig", k8s.kubeconfig.toString())
                .exitCode())
        .isZero();

    assertThat(client.resources(Backup.class).inNamespace("team").withName("a").get()).isNotNull();
    assertThat(client.resources(Backup.class).inNamespace("other").withName("b").get()).isNotNull();
    // the kubeconfig context's namespace (default) is not where Stele's resources are
    assertThat(client.resources(Backup.class).inNamespace("default").list().getItems()).isEmpty();
  }
}
