package dev.stele.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.crypto.Kdf;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.RunPhase;
import dev.stele.operator.kube.OperatorMetrics;
import dev.stele.repo.Repository;
import dev.stele.testing.Await;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A repository stays open for the life of the process: reconcile passes derive its key once and
 * load its index once per backup, until a Secret it was opened with changes.
 */
@EnableKubernetesMockClient(crud = true)
class OpenRepositoriesTest {
  static KubernetesClient client;

  @TempDir Path base;
  OperatorFixture op;

  @BeforeEach
  void setUp() throws IOException {
    Lifecycle.clean(client);
    Files.createDirectories(base.resolve("bucket"));
    op = new OperatorFixture(client);
    Lifecycle.world(op, Lifecycle.location(base, null, null));
  }

  @Test
  void passesOverAReadyRepositoryAndItsBackupsDeriveTheKeyOnce() {
    long derivations = Kdf.derivations();
    long loads = Repository.indexLoads();
    for (int i = 0; i < 3; i++) {
      assertThat(op.reconcileRepository("default").getStatus().phase)
          .isEqualTo(RepositoryPhase.READY);
    }
    assertThat(Repository.indexLoads() - loads).as("index loads of repository passes").isZero();

    long[] perBackup = new long[3];
    for (int i = 0; i < 3; i++) {
      long before = Repository.indexLoads();
      op.backup("b" + i, Lifecycle.appSpec("24h"));
      assertThat(op.reconcileBackup("b" + i).getStatus().phase).isEqualTo(RunPhase.COMPLETED);
      perBackup[i] = Repository.indexLoads() - before;
      assertThat(op.reconcileRepository("default").getStatus().phase)
          .isEqualTo(RepositoryPhase.READY);
    }
    assertThat(Kdf.derivations() - derivations).as("key derivations").isZero();
    assertThat(perBackup[0]).as("index loads of a backup").isPositive();
    assertThat(perBackup).containsOnly(perBackup[0]);
  }

  @Test
  void theMetricsCountDerivationsAndIndexLoads() {
    var registry = new SimpleMeterRegistry();
    new OperatorMetrics(registry);
    assertThat(registry.get("stele_kdf_derivations").functionCounter().count())
        .isEqualTo((double) Kdf.derivations());
    assertThat(registry.get("stele_index_loads").functionCounter().count())
        .isEqualTo((double) Repository.indexLoads());
  }

  @Test
  void aChangedPasswordSecretOpensTheRepositoryAnew() {
    String password = op.secretValue("default-repository-password", "password");
    assertThat(op.reconcileRepository("default").getStatus().phase)
        .isEqualTo(RepositoryPhase.READY);
    long derivations = Kdf.derivations();

    op.secret("default-repository-password", Map.of("password", "wrong"));
    var wrong =
        Await.until(
            "the changed Secret seen",
            () -> op.reconcileRepository("default"),
            r -> r.getStatus().phase == RepositoryPhase.NOT_READY);
    assertThat(wrong.getStatus().message)
        .isEqualTo(
            "the password in Secret default-repository-password (key password) does not open the"
                + " repository at filesystem://bucket/velero/repositories/default: put the"
                + " repository's password in that Secret");
    assertThat(Kdf.derivations()).isGreaterThan(derivations);

    op.secret("default-repository-password", Map.of("password", password));
    Await.until(
        "the restored Secret seen",
        () -> op.reconcileRepository("default"),
        r -> r.getStatus().phase == RepositoryPhase.READY);
    long reopened = Kdf.derivations();
    assertThat(op.reconcileRepository("default").getStatus().phase)
        .isEqualTo(RepositoryPhase.READY);
    assertThat(Kdf.derivations()).isEqualTo(reopened);
  }
}
