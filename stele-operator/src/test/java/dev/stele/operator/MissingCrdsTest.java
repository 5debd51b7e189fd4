package dev.stele.operator;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.operator.kube.Settings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator and the node agent started against an API server without Stele's CRDs: as a real
 * one, the mock (expecting nothing) answers 404 to their lists and to discovery of stele.dev.
 */
@EnableKubernetesMockClient
class MissingCrdsTest {
  KubernetesClient client;
  @TempDir Path base;

  @Test
  void theOperatorNamesTheMissingCrdsAndHowToInstallThem() {
    OperatorFixture op = new OperatorFixture(client, Clock.systemUTC());
    assertThatThrownBy(
            () ->
                SteleOperator.start(
                    client,
                    new Settings(Clock.systemUTC(), op.stores, OperatorFixture::cheapKdf),
                    -1,
                    false))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "the Kubernetes API server at "
                + client.getMasterUrl()
                + " does not serve backups.stele.dev, backupstoragelocationrepositories.stele.dev,"
                + " backupstoragelocations.stele.dev, backupstoragelocationservers.stele.dev,"
                + " deletebackuprequests.stele.dev,"
                + " restores.stele.dev, schedules.stele.dev: install the CRDs with kubectl"
                + " apply -f deploy/crds (or stele install --apply)");
  }

  @Test
  void theNodeAgentToo() {
    assertThatThrownBy(() -> NodeAgent.start(client, null, "node-1", base, -1))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(
            "does not serve podvolumebackups.stele.dev, podvolumerestores.stele.dev: install the"
                + " CRDs");
  }
}
