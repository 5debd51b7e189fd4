package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class XmlTest {
  @Test
  void readsElementsTextAndEntitiesOfAListing() {
    Xml xml =
        Xml.parse(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Name>b</Name><IsTruncated>true</IsTruncated>
              <Contents><Key>r/a&amp;b&lt;c&gt;&#233;&#x263A;</Key><Size>12</Size></Contents>
              <Contents><Key><![CDATA[r/<raw>]]></Key><Size>0</Size></Contents>
              <!-- a comment -->
              <NextContinuationToken>t=1</NextContinuationToken>
              <Empty/>
            </ListBucketResult>
            """);
    assertThat(xml.name()).isEqualTo("ListBucketResult");
    assertThat(xml.text("IsTruncated")).isEqualTo("true");
    assertThat(xml.all("Contents"))
        .extracting(c -> c.text("Key"))
        .containsExactly("r/a&b<c>é☺", "r/<raw>");
    assertThat(xml.text("NextContinuationToken")).isEqualTo("t=1");
    assertThat(xml.text("Empty")).isEmpty();
    assertThat(xml.text("Missing")).isNull();
  }

  @Test
  void namespacePrefixesAreDropped() {
    Xml xml = Xml.parse("<s3:Error xmlns:s3=\"x\"><s3:Code>NoSuchKey</s3:Code></s3:Error>");
    assertThat(xml.name()).isEqualTo("Error");
    assertThat(xml.text("Code")).isEqualTo("NoSuchKey");
  }

  @Test
  void aTruncatedDocumentIsRefused() {
    assertThatThrownBy(() -> Xml.parse("<Error><Code>Slow"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Xml.parse("not xml")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Xml.parse("<a>&bogus;</a>"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
