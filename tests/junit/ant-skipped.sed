# SPDX-License-Identifier: GPL-2.0-only
# ant-junit.xsd with what Ant's formatter writes for a skipped test
# (README): a testcase may hold a <skipped/>, a testsuite may say how
# many skipped.  Run with sed -f.
/<xs:choice minOccurs="0">/a\
<xs:element name="skipped"/>
/<xs:attribute name="tests" type="xs:int" use="required">/i\
<xs:attribute name="skipped" type="xs:int" use="optional"/>
