package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the API server refuses, as a person sees it: one line, the server's own words where they
 * help, and a hint when Stele's CRDs are not installed. The mock answers as a real server does.
 */
@EnableKubernetesMockClient
class ClusterErrorsTest {
  private static final String BACKUPS = "/apis/stele.dev/v1alpha1/namespaces/stele/backups";

  KubernetesClient client;
  KubernetesMockServer server;
  @TempDir Path dir;
  ClusterFixture k8s;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
  }

  @Test
  void forbiddenIsTheServersMessage() {
    String message =
        "backups.stele.dev is forbidden: User \"ann\" cannot list resource \"backups\" in API"
            + " group \"stele.dev\" in the namespace \"stele\"";
    server
        .expect()
        .get()
        .withPath(BACKUPS)
        .andReturn(
            403,
            new StatusBuilder()
                .withStatus("Failure")
                .withReason("Forbidden")
                .withCode(403)
                .withMessage(message)
                .build())
        .always();

    Cli.Run run = k8s.run("backup", "get");

    assertThat(run.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(run.errorLines()).containsExactly("stele: " + message);
  }

  @Test
  void anUnknownResourceTypeSaysToInstallTheCrds() {
    server
        .expect()
        .get()
        .withPath(BACKUPS)
        .andReturn(
            404,
            new StatusBuilder()
                .withStatus("Failure")
                .withReason("NotFound")
                .withCode(404)
                .withMessage("the server could not find the requested resource")
                .build())
        .always();

    Cli.Run run = k8s.run("backup", "get");

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: the cluster at "
                + client.getMasterUrl()
                + " does not know Stele's resources (stele.dev): install them with stele"
                + " install --apply");
  }

  @Test
  void rejectedCredentialsAreOneLine() {
    server.expect().get().withPath(BACKUPS).andReturn(401, "Unauthorized").always();

    Cli.Run run = k8s.run("backup", "get");

    assertThat(run.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: the Kubernetes API server at "
                + client.getMasterUrl()
                + " refused the kubeconfig's credentials");
  }
}
