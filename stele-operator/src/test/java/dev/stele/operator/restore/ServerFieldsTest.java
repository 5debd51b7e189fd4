package dev.stele.operator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a restore removes from and rewrites in a backed-up document before creating it. */
class ServerFieldsTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static BackedUpObject object(String group, String resource, String ns, String json)
      throws Exception {
    ObjectNode doc = (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    return new BackedUpObject(group, resource, ns, doc.at("/metadata/name").asText(), doc);
  }

  static ObjectNode prepare(BackedUpObject o, Set<String> volumes) {
    return ServerFields.prepare(
        o, ns -> ns.equals("a") ? "b" : ns, volumes, Map.of("stele.dev/restore-name", "r"));
  }

  @Test
  void serverSetMetadataAndStatusAreRemovedAndTheNamespaceMapped() throws Exception {
    var o =
        object(
            "",
            "configmaps",
            "a",
            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','namespace':'a',"
                + "'uid':'u','resourceVersion':'7','creationTimestamp':'2030-01-01T00:00:00Z',"
                + "'generation':3,'managedFields':[{}],'selfLink':'/x','deletionTimestamp':'t',"
                + "'deletionGracePeriodSeconds':30,'ownerReferences':[{'uid':'o'}],"
                + "'labels':{'app':'x'},'annotations':{'note':'kept'},'finalizers':['f']},"
                + "'data':{'k':'v'},'status':{'x':1}}");
    ObjectNode doc = prepare(o, Set.of());
    assertThat(doc.has("status")).isFalse();
    assertThat(doc.get("metadata").properties())
        .extracting(Map.Entry::getKey)
        .containsExactlyInAnyOrder("name", "namespace", "labels", "annotations", "finalizers");
    assertThat(doc.at("/metadata/namespace").asText()).isEqualTo("b");
    assertThat(doc.at("/metadata/labels/app").asText()).isEqualTo("x");
    assertThat(doc.at("/metadata/labels/stele.dev~1restore-name").asText()).isEqualTo("r");
    assertThat(doc.at("/data/k").asText()).isEqualTo("v");
    // the backed-up document is left as it was
    assertThat(o.json().at("/metadata/uid").asText()).isEqualTo("u");
  }

  @Test
  void aNamespaceObjectIsRenamed() throws Exception {
    var o =
        object(
            "",
            "namespaces",
            null,
            "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'a'}}");
    assertThat(prepare(o, Set.of()).at("/metadata/name").asText()).isEqualTo("b");
  }

  @Test
  void aServiceLosesItsAllocatedAddressesUnlessHeadless() throws Exception {
    String svc =
        "{'apiVersion':'v1','kind':'Service','metadata':{'name':'s','namespace':'a'},'spec':{"
            + "'clusterIP':'%s','clusterIPs':['%s'],'healthCheckNodePort':31000,"
            + "'ports':[{'port':80,'nodePort':30080}]}}";
    ObjectNode doc =
        prepare(object("", "services", "a", svc.formatted("10.0.0.1", "10.0.0.1")), Set.of());
    assertThat(doc.at("/spec").has("clusterIP")).isFalse();
    assertThat(doc.at("/spec").has("clusterIPs")).isFalse();
    assertThat(doc.at("/spec").has("healthCheckNodePort")).isFalse();
    assertThat(doc.at("/spec/ports/0").has("nodePort")).isFalse();
    assertThat(doc.at("/spec/ports/0/port").asInt()).isEqualTo(80);
    ObjectNode headless =
        prepare(object("", "services", "a", svc.formatted("None", "None")), Set.of());
    assertThat(headless.at("/spec/clusterIP").asText()).isEqualTo("None");
    assertThat(headless.at("/spec/clusterIPs/0").asText()).isEqualTo("None");
  }

  @Test
  void aPodIsScheduledAgainAndAClaimBindsANewVolumeUnlessItsOwnIsRestored() throws Exception {
    var pod =
        object(
            "",
            "pods",
            "a",
            "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'nodeName':'n1'}}");
    assertThat(prepare(pod, Set.of()).at("/spec").has("nodeName")).isFalse();
    String claim =
        "{'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'c','annotations':{"
            + "'pv.kubernetes.io/bind-completed':'yes','pv.kubernetes.io/bound-by-controller':'yes',"
            + "'volume.beta.kubernetes.io/storage-provisioner':'p',"
            + "'volume.kubernetes.io/storage-provisioner':'p',"
            + "'volume.kubernetes.io/selected-node':'n1','mine':'kept'}},"
            + "'spec':{'volumeName':'pv-1'}}";
    ObjectNode fresh = prepare(object("", "persistentvolumeclaims", "a", claim), Set.of());
    assertThat(fresh.at("/spec").has("volumeName")).isFalse();
    assertThat(fresh.at("/metadata/annotations").properties())
        .extracting(Map.Entry::getKey)
        .containsExactly("mine");
    ObjectNode bound = prepare(object("", "persistentvolumeclaims", "a", claim), Set.of("pv-1"));
    assertThat(bound.at("/spec/volumeName").asText()).isEqualTo("pv-1");
    assertThat(bound.at("/metadata/annotations").has("pv.kubernetes.io/bind-completed")).isTrue();
    assertThat(bound.at("/metadata/annotations").has("volume.kubernetes.io/selected-node"))
        .isFalse();
  }

  @Test
  void aVolumesClaimRefAJobsGeneratedSelectorAndBindingSubjectsAreRewritten() throws Exception {
    var pv =
        object(
            "",
            "persistentvolumes",
            null,
            "{'apiVersion':'v1','kind':'PersistentVolume','metadata':{'name':'pv-1'},'spec':{"
                + "'claimRef':{'name':'c','namespace':'a','uid':'u','resourceVersion':'9'}}}");
    ObjectNode ref = (ObjectNode) prepare(pv, Set.of()).at("/spec/claimRef");
    assertThat(ref.properties())
        .extracting(Map.Entry::getKey)
        .containsExactlyInAnyOrder("name", "namespace");
    assertThat(ref.get("namespace").asText()).isEqualTo("b");
    assertThat(pv.json().at("/metadata").has("namespace")).isFalse();

    var job =
        object(
            "batch",
            "jobs",
            "a",
            "{'apiVersion':'batch/v1','kind':'Job','metadata':{'name':'j'},'spec':{"
                + "'selector':{'matchLabels':{'controller-uid':'u'}},'template':{'metadata':{"
                + "'labels':{'controller-uid':'u','batch.kubernetes.io/controller-uid':'u',"
                + "'job-name':'j'}}}}}");
    ObjectNode j = prepare(job, Set.of());
    assertThat(j.at("/spec").has("selector")).isFalse();
    assertThat(j.at("/spec/template/metadata/labels").properties())
        .extracting(Map.Entry::getKey)
        .containsExactly("job-name");

    var binding =
        object(
            "rbac.authorization.k8s.io",
            "rolebindings",
            "a",
            "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'RoleBinding','metadata':{'name':'r'},"
                + "'subjects':[{'kind':'ServiceAccount','name':'s','namespace':'a'},"
                + "{'kind':'ServiceAccount','name':'t','namespace':'elsewhere'},{'kind':'User','name':'u'}]}");
    ObjectNode b = prepare(binding, Set.of());
    assertThat(b.at("/subjects").findValuesAsText("namespace"))
        .isEqualTo(List.of("b", "elsewhere"));
  }
}
