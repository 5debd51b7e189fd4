package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The files of {@code deploy/} as a person applies them with {@code kubectl apply -f}. */
class DeployFilesTest {
  private static final List<Installation.Part> PARTS = Installation.base().parts();

  @Test
  void rbacCreatesTheNamespaceItsObjectsLiveIn() {
    assertThat(namespacesUsedBy("rbac.yaml")).containsExactly("stele");
    assertThat(namespacesCreatedBy("rbac.yaml")).containsExactly("stele");
  }

  @Test
  void theOperatorAndTheNodeAgentNeedOnlyTheNamespaceRbacCreates() {
    for (String file : List.of("operator.yaml", "node-agent.yaml")) {
      assertThat(namespacesCreatedBy("rbac.yaml")).containsAll(namespacesUsedBy(file));
    }
  }

  @Test
  void theKustomizationListsRbacBeforeTheWorkloads() {
    List<String> files = Installation.files();
    assertThat(files.indexOf("rbac.yaml"))
        .isLessThan(files.indexOf("operator.yaml"))
        .isLessThan(files.indexOf("node-agent.yaml"));
  }

  private static Set<String> namespacesUsedBy(String file) {
    return objects(file).stream()
        .map(o -> o.getMetadata().getNamespace())
        .filter(ns -> ns != null)
        .collect(Collectors.toSet());
  }

  private static Set<String> namespacesCreatedBy(String file) {
    return objects(file).stream()
        .filter(o -> o.getKind().equals("Namespace"))
        .map(o -> o.getMetadata().getName())
        .collect(Collectors.toSet());
  }

  private static List<HasMetadata> objects(String file) {
    return PARTS.stream()
        .filter(p -> p.file().equals(file))
        .map(Installation.Part::object)
        .toList();
  }
}
